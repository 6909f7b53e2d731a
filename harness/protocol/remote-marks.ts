/** Which adapters reach their registry in another process, for the checks that wait on what it sends. */
import type { ConformanceAdapter } from '../contract/adapter.js'

const remotes = new WeakSet<ConformanceAdapter>()

export const markRemote = <A extends ConformanceAdapter>(adapter: A): A => (remotes.add(adapter), adapter)

/** Whether the adapter's registry runs in another process: a signal it aborts reaches the harness a message later. */
export const isRemote = (adapter: ConformanceAdapter): boolean => remotes.has(adapter)
