/**
 * Where SPEC leaves a branch open, the trace says which one the implementation took, and the
 * call is judged on that branch: an agent-less `ask` forwarded or denied without asking (APR-1),
 * a `defineTool` tool's invalid arguments refused before or after the hooks (DEF-5).
 */
import type { Trace } from '../../scenario/trace.js'
import type { CallSpec, Scenario } from '../../scenario/types.js'
import { predict, type Expected, type PredictOptions, type ShapeSource } from '../predict.js'
import { approvalRequested } from './call-view.js'

const HOOK_STAGES = ['pre', 'guard', 'wrapper', 'post']

export function predictBranch(scenario: Scenario, trace: Trace, index: number, callId: string, nested?: CallSpec, lax?: ReadonlySet<ShapeSource>): Expected {
  const base: PredictOptions = { ...(nested ? { nested } : {}), ...(lax ? { lax } : {}) }
  const e = predict(scenario, index, base)
  const hooked = trace.events.some((x) => x.ev === 'enter' && HOOK_STAGES.includes(x.stage) && x.call === callId) || approvalRequested(trace, callId)
  // DEF-5: no hook saw a call a defineTool tool refuses, so the registry validated at entry.
  if (e.defineRefuses && !hooked) return predict(scenario, index, { ...base, defineAtEntry: true })
  if (!e.agentlessAsk) return e
  return approvalRequested(trace, callId) ? e : predict(scenario, index, { ...base, denyAgentlessAsk: true })
}
