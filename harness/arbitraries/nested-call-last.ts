/**
 * A reach some clauses share: a tool of the case's own, called last, whose body first dispatches a
 * nested call (`parent`: its token) to another global tool of its own that succeeds. No listener,
 * guard or wrapper stands in the way (unless `keepHooks`), so the nested call is made, and meets the
 * stages a nested call goes through like any call.
 */
import type { DispatchStep, Scenario, ToolSpec } from '../scenario/types.js'
import { ANY_SCHEMA } from './outputs.js'
import { toolOfItsOwn } from './tools.js'

export const NESTING = 'nesting'
export const NESTED_LEAF = 'nested_leaf'

export interface NestedCallOptions {
  /** What the nested call's tool has besides (a finalizer, say). */
  leaf?: Partial<ToolSpec>
  /** What the nested call is handed besides (a signal of its own, a caller of its own). */
  dispatch?: Pick<DispatchStep, 'abortedSignal' | 'agent'>
  /** The case's listeners, guards and wrappers stay, for the nested call to meet (the program's own call may then be denied). */
  keepHooks?: boolean
}

/** The case's first tool is the model for both tools of its own. */
export function withNestedCallLast(s: Scenario, { leaf = {}, dispatch = {}, keepHooks = false }: NestedCallOptions = {}): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === NESTING || t.name === NESTED_LEAF)) return s
  const succeeding = { outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value: { ok: true } } } } satisfies Partial<ToolSpec>
  const nestedTool = toolOfItsOwn(model, NESTED_LEAF, { ...succeeding, ...leaf })
  const steps: DispatchStep[] = [{ kind: 'dispatch', tool: NESTED_LEAF, args: {}, ...dispatch }]
  const nesting = toolOfItsOwn(model, NESTING, { ...succeeding, body: { ...succeeding.body, steps } })
  const withCall = { ...s, tools: [...s.tools, nesting, nestedTool], calls: [...s.calls, { tool: NESTING, args: {} }] }
  return keepHooks ? withCall : { ...withCall, pre: [], guards: [], wrappers: [] }
}
