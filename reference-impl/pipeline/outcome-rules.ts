/**
 * Rules on outcomes that the run applies between stages: CAN-3 (a cancelled success becomes
 * ABORTED), CAN-4 (only successes are replaced), CTX-1 (deferred contexts attached in order).
 */
import type { ToolExecutionResult, UserMessage } from '../../harness/contract/spec.js'
import { aborted } from '../outcomes.js'

/** CAN-3, CAN-4: after an abort, a success becomes ABORTED; every other outcome stays. */
export function cancelOutcome(result: ToolExecutionResult): ToolExecutionResult {
  return result.isError ? result : aborted()
}

/** CTX-1: the call's contexts ride on its outcome, success or error alike. */
export function attachContexts(result: ToolExecutionResult, contexts: readonly UserMessage[]): ToolExecutionResult {
  if (contexts.length === 0) return result
  return { ...result, additionalContexts: [...contexts] }
}

export const isCancelled = (signal: AbortSignal): boolean => signal.aborted
