/**
 * One call through the pipeline, stage by stage (the routing table at the end of SPEC.md).
 * Honours IN-4 (execute never rejects), CAN-2 (cancellation is re-checked after every gate),
 * CAN-3 (the call settles only after a started body settles; then a success becomes ABORTED),
 * CAN-4 (only successes are replaced), META-1 (an invalid deferred context fails the call), CTX-1 (deferred contexts ride on the outcome), FIN-2
 * (finalize runs exactly once for a routed call), RES-1 (observers once, after finalization).
 */
import type { ToolExecutionResult, UserMessage } from '../../harness/contract/spec.js'
import { aborted, failure } from '../outcomes.js'
import type { CallState, Gate, RegistryContext, Stages } from './call-state.js'

export async function runCall(stages: Stages, registry: RegistryContext, input: unknown): Promise<ToolExecutionResult> {
  let entry
  try {
    entry = stages.materialize(registry, input)
  } catch {
    return stages.seal(failure('The registry could not read this call.'), false)
  }
  if (entry.kind === 'unrouted') {
    const sealed = stages.seal(entry.result, false)
    stages.notifyObservers(registry.hooks.observers.forCall(entry.agent), entry.exec, sealed)
    return sealed
  }
  const { call } = entry
  registry.inFlight.add(call.exec.token)
  registry.calls.set(call.exec, call)
  try {
    const settled = entry.kind === 'ended' ? entry.result : await settle(stages, registry, call)
    const sealed = stages.seal(settled, call.concluded)
    const touched = stages.finalize(call, sealed)
    const finalized = touched === sealed ? sealed : stages.seal(touched, call.concluded)
    stages.notifyObservers(call.observers, call.exec, finalized)
    return finalized
  } finally {
    registry.inFlight.delete(call.exec.token)
  }
}

/** Everything between materialization and finalization: the gates, the body, post-execute. */
async function settle(stages: Stages, registry: RegistryContext, call: CallState): Promise<ToolExecutionResult> {
  let ended: { result: ToolExecutionResult; runPost: boolean }
  try {
    ended = await gatesAndBody(stages, registry, call)
  } catch {
    ended = { result: failure('The registry failed while running this call.'), runPost: false }
  }
  await call.bodySettled
  // A body a wrapper left running beside its made-up result may have deferred an invalid context (META-1).
  const contextFailed = call.contextError !== undefined && !ended.result.isError
  let result = contextFailed ? failure(`Invalid deferred context: ${call.contextError}`, 'INVALID_TOOL_OUTPUT') : ended.result
  if (stages.isCancelled(call.exec.signal)) result = stages.cancelOutcome(result)
  result = stages.attachContexts(result, call.contexts)
  if (!ended.runPost) return result
  try {
    const post = await stages.postExecute(call, result)
    return stages.attachContexts(post.result, [...call.contexts, ...post.contexts])
  } catch {
    return stages.attachContexts(failure('The registry failed in post-execute.'), call.contexts)
  }
}

async function gatesAndBody(stages: Stages, registry: RegistryContext, call: CallState) {
  const gate = await policyGates(stages, registry, call)
  if (!gate.pass) return gate
  if (stages.isCancelled(call.exec.signal)) return { result: aborted(), runPost: true }
  return stages.runExecute(call)
}

async function policyGates(stages: Stages, registry: RegistryContext, call: CallState): Promise<Gate> {
  const decision = await stages.preExecute(call)
  if (decision.kind === 'failed') return { pass: false, result: failure('A pre-execute listener failed.'), runPost: false }
  // A denial stays a denial even when the caller aborted meanwhile (CAN-4).
  if (decision.kind === 'deny') return { pass: false, result: failure(decision.reason), runPost: true }
  if (stages.isCancelled(call.exec.signal)) return { pass: false, result: aborted(), runPost: true }
  if (decision.kind === 'ask') {
    const approval = await stages.approve(call, registry.approval, decision.reason)
    if (!approval.pass) return approval
  }
  return stages.runGuards(call)
}
