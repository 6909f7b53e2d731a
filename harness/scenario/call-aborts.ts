/** Where a call's abort lands when the moment its spec names cannot come: at a scheduler point. */
import type { CallSpec } from './types.js'

/** A call that could wait forever, aborted at a scheduler point (never after its body settles: it would not settle). */
export function abortedWhileWaiting({ abortAsBodySettles: _, abortWhilePostRuns: __, ...call }: CallSpec): CallSpec {
  return { ...call, abortScheduled: true }
}

/** With no post-execute listener to abort in, a call's abort lands at a scheduler point instead. */
export function abortedAtASchedulerPoint(call: CallSpec): CallSpec {
  if (!call.abortWhilePostRuns) return call
  const { abortWhilePostRuns: _, ...rest } = call
  return { ...rest, abortScheduled: true }
}
