/**
 * A reach some clauses share: a tool of the case's own, called last, whose body first dispatches a
 * nested call (`parent`: its token) to another global tool of its own that succeeds. No listener,
 * guard or wrapper stands in the way, so the nested call is made, and meets the stages a nested
 * call goes through like any call.
 */
import type { DispatchStep, Scenario, ToolSpec } from '../scenario/types.js'
import { ANY_SCHEMA } from './outputs.js'
import { toolOfItsOwn } from './tools.js'

export const NESTING = 'nesting'
export const NESTED_LEAF = 'nested_leaf'

/**
 * `leaf` is what the nested call's tool has besides (a finalizer, say), `dispatch` what the nested
 * call is handed besides (a signal of its own); the case's first tool is the model for both tools.
 */
export function withNestedCallLast(s: Scenario, leaf: Partial<ToolSpec> = {}, dispatch: Pick<DispatchStep, 'abortedSignal' | 'agent'> = {}): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === NESTING || t.name === NESTED_LEAF)) return s
  const succeeding = { outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value: { ok: true } } } } satisfies Partial<ToolSpec>
  const nestedTool = toolOfItsOwn(model, NESTED_LEAF, { ...succeeding, ...leaf })
  const steps: DispatchStep[] = [{ kind: 'dispatch', tool: NESTED_LEAF, args: {}, ...dispatch }]
  const nesting = toolOfItsOwn(model, NESTING, { ...succeeding, body: { ...succeeding.body, steps } })
  return { ...s, pre: [], guards: [], wrappers: [], tools: [...s.tools, nesting, nestedTool], calls: [...s.calls, { tool: NESTING, args: {} }] }
}
