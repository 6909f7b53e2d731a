/**
 * Stage 3: approval for an `ask`. Honours PRE-5 (no approval service means deny), APR-1 (the
 * registry shows nothing: it forwards callId, tool name, reason, signal and agent, never the
 * arguments, exactly once), APR-2 (only the exact outcome 'allowed-once' passes; anything else, a
 * throw, a rejection or a caller abort while pending means the body never runs). APR-3 holds
 * because a granted approval only leads on to the guards.
 */
import type { ApprovalRequest, ApprovalService } from '../../harness/contract/adapter.js'
import { aborted, denied, failure } from '../outcomes.js'
import { ABORTED, untilAborted } from './abort.js'
import { PASS, stop, type CallState, type Gate } from './call-state.js'

export async function approve(call: CallState, service: ApprovalService | undefined, reason: string | undefined): Promise<Gate> {
  if (!service) return stop(denied('Approval is required but no approval service is configured.'), true)
  const { exec } = call
  const request: ApprovalRequest = { callId: exec.callId, toolName: exec.name, signal: exec.signal }
  if (reason !== undefined) request.reason = reason
  if (exec.agent !== undefined) request.agent = exec.agent
  let outcome: unknown
  try {
    outcome = await untilAborted(Promise.resolve(service.request(Object.freeze(request))), exec.signal)
  } catch {
    return stop(failure('The approval service failed.'), false)
  }
  if (outcome === ABORTED) return stop(aborted(), true)
  // A refusal stays a refusal even when the caller aborted after it (CAN-4).
  if (outcome !== 'allowed-once') return stop(denied(`Approval was not granted (${describeOutcome(outcome)}).`), true)
  return exec.signal.aborted ? stop(aborted(), true) : PASS
}

function describeOutcome(outcome: unknown): string {
  return typeof outcome === 'string' ? outcome : typeof outcome
}
