/**
 * Where SPEC leaves a branch open, the trace says which one the implementation took, and the
 * call is judged on that branch: an agent-less `ask` forwarded or denied without asking (APR-1),
 * a `defineTool` tool's invalid arguments refused before or after the hooks (DEF-5), a nested
 * success with or without meta (OUT-2), a call to no visible tool ended before the policy or
 * after it (IN-4). And what the approval service answered a call, where it answers each request in turn.
 */
import type { Trace } from '../../scenario/trace.js'
import type { CallSpec, Scenario } from '../../scenario/types.js'
import { predict, type Expected, type PredictOptions, type ShapeSource } from '../predict.js'
import type { GoneHooks } from '../model/types.js'
import { approvalRequested, readSafe } from './call-view.js'

const HOOK_STAGES = ['pre', 'guard', 'wrapper', 'post']

/** OUT-2: a nested success published with no meta took the branch that never projects meta. */
function omittedMeta(trace: Trace, callId: string): { omitMeta?: true } {
  const result = trace.nested?.find((r) => r.callId === callId)?.result
  const published = readSafe(() => result?.isError === false && !('meta' in result))
  return published === true ? { omitMeta: true } : {}
}

/**
 * The hooks that disposed of themselves when a call before this one entered them: registered no
 * more for this call (calls that dispose hooks run one after another, so "before" is the index).
 */
function goneHooks(scenario: Scenario, trace: Trace, index: number): { gone?: GoneHooks } {
  const hooks = { pre: scenario.pre, guard: scenario.guards, wrapper: scenario.wrappers, post: scenario.post }
  if (!Object.values(hooks).some((list) => list.some((hook) => hook.disposesSelf))) return {}
  const gone: GoneHooks = { pre: [], guard: [], wrapper: [], post: [] }
  const before = (call: string) => Number(call.slice(1).split('/')[0]) < index
  for (const x of trace.events) {
    if (x.ev !== 'enter' || !(x.stage in gone) || !before(x.call)) continue
    const stage = x.stage as keyof GoneHooks
    if (hooks[stage][x.index]?.disposesSelf && !gone[stage].includes(x.index)) gone[stage].push(x.index)
  }
  return { gone }
}

/** APR-2: a service with later answers answers each request in turn, so a call's answer is its request's place. */
function approvalPlace(scenario: Scenario, trace: Trace, callId: string): { approvalRequest?: number } {
  const approval = scenario.config.approval
  if (approval?.kind !== 'returns' || !approval.later?.length) return {}
  const requests = trace.events.filter((x) => x.ev === 'approval-request')
  const at = requests.findIndex((x) => x.call === callId)
  return { approvalRequest: at < 0 ? requests.length : at }
}

export function predictBranch(scenario: Scenario, trace: Trace, index: number, callId: string, nested?: CallSpec, lax?: ReadonlySet<ShapeSource>): Expected {
  const base: PredictOptions = {
    ...goneHooks(scenario, trace, index),
    ...approvalPlace(scenario, trace, callId),
    ...(nested ? { nested, ...omittedMeta(trace, callId) } : {}),
    ...(lax ? { lax } : {}),
  }
  const e = predict(scenario, index, base)
  const hooked = trace.events.some((x) => x.ev === 'enter' && HOOK_STAGES.includes(x.stage) && x.call === callId) || approvalRequested(trace, callId)
  // IN-4: a hook saw a call to no visible tool, so the registry runs the policy before it ends.
  if (e.unknownMayReachPolicy && hooked) return predict(scenario, index, { ...base, unknownAfterPolicy: true })
  // DEF-5: no hook saw a call a defineTool tool refuses, so the registry validated at entry.
  if (e.defineRefuses && !hooked) return predict(scenario, index, { ...base, defineAtEntry: true })
  if (!e.agentlessAsk) return e
  return approvalRequested(trace, callId) ? e : predict(scenario, index, { ...base, denyAgentlessAsk: true })
}
