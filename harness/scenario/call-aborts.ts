/** Where a call's abort lands when the moment its spec names cannot come. */
import type { CallSpec } from './types.js'

/** With no post-execute listener to abort in, a call's abort lands at a scheduler point instead. */
export function abortedAtASchedulerPoint(call: CallSpec): CallSpec {
  if (!call.abortWhilePostRuns) return call
  const { abortWhilePostRuns: _, ...rest } = call
  return { ...rest, abortScheduled: true }
}
