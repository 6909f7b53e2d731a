/** Tool waiter for EXE-2's direct checks: its body holds its signal and returns once that signal aborts. */
import { liveTool } from '../harness/property/sample-tools.js'
import type { RegistryUnderTest } from '../harness/contract/adapter.js'
import { untilAborted } from './real-time.js'

export interface Waiter {
  /** Settles once the body runs. */
  readonly running: Promise<void>
  /** The signal the body holds, once it runs. */
  held(): AbortSignal | undefined
}

export function registerWaiter(registry: RegistryUnderTest): Waiter {
  let held: AbortSignal | undefined
  let started: () => void = () => undefined
  const running = new Promise<void>((resolve) => (started = resolve))
  registry.register(liveTool('waiter', {
    execute: (async (_args: unknown, exec: { signal: AbortSignal }) => {
      held = exec.signal
      started()
      await untilAborted(exec.signal)
      return { stopped: true }
    }) as never,
  }))
  return { running, held: () => held }
}
