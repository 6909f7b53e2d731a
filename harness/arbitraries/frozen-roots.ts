/**
 * Values frozen at their root only (`Object.freeze(o)`), what they hold still writable: a body's
 * value, a render's or a finalizer's content. A registry that takes a frozen root for a deep-frozen
 * value (and skips its snapshot or its deep freeze) publishes, or hands a hook, what the tool can
 * still change (OUT-1, RES-2, PST-1, FIN-3).
 */
import { isLosslessDesc, isObjectDesc, isTagged } from '../scenario/read-desc.js'
import type { FinalizeSpec, ProjectionSpec, Scenario, ToolSpec, ValueDesc } from '../scenario/types.js'

const frozen = (value: ValueDesc): ValueDesc => (isObjectDesc(value) && !isTagged(value) && isLosslessDesc(value) ? { $: 'frozen', value } : value)

const frozenReturn = <S extends ProjectionSpec | FinalizeSpec>(spec: S): S => (spec.kind === 'returns' ? { ...spec, value: frozen(spec.value) } : spec)

function frozenInTool(t: ToolSpec): ToolSpec {
  const { outcome } = t.body
  const body = outcome.kind === 'return' ? { ...t.body, outcome: { ...outcome, value: frozen(outcome.value) } } : t.body
  return { ...t, body, render: frozenReturn(t.render), ...(t.finalize ? { finalize: frozenReturn(t.finalize) } : {}) }
}

/** Every object value and content the case's tools return, frozen at its root. */
export const frozenRoots = (s: Scenario): Scenario => ({ ...s, tools: s.tools.map(frozenInTool) })
