/**
 * Values that hold one object twice: a shared subtree, which is lossless JSON (acyclic), not a
 * cycle. A registry that takes every object met twice for a cycle refuses a valid value, content or
 * meta. Arguments are left alone: a model's arguments are parsed JSON, which never shares a subtree.
 */
import { isLosslessDesc, isObjectDesc, isPlainDesc } from '../scenario/read-desc.js'
import type { FinalizeSpec, ProjectionSpec, Scenario, ToolSpec, ValueDesc } from '../scenario/types.js'
import { ANY_SCHEMA } from './outputs.js'

const ANY_SCHEMA_TEXT = JSON.stringify(ANY_SCHEMA)

/** `[o, o]` with `o` built once. */
const twice = (value: ValueDesc): ValueDesc => ({ $: 'twice', value })

const PAIR: ValueDesc = twice({ n: 1 })

/** An object's own key added: a shared pair beside what it holds. */
const withPair = (desc: { [k: string]: ValueDesc }): ValueDesc => ({ ...desc, pair: PAIR })

/** Whether a schema's root leaves other keys open (the pair is then still valid). */
const openObject = (schema: ValueDesc) => {
  const root = schema as { type?: unknown; additionalProperties?: unknown }
  return isPlainDesc(schema) && root.type === 'object' && root.additionalProperties !== false
}

/**
 * A body's value held twice where its schema takes any value, or beside a shared pair where its
 * object is open; a value no schema of its would take shared (a string, a closed object) gives way
 * to `instead`. A value that is not lossless stays as it is.
 */
function sharedValue(value: ValueDesc, schema: ValueDesc, instead: SharedOutput): SharedOutput {
  if (!isLosslessDesc(value)) return { value, schema }
  if (JSON.stringify(schema) === ANY_SCHEMA_TEXT) return { value: twice(isObjectDesc(value) ? value : { v: value }), schema }
  return isPlainDesc(value) && openObject(schema) ? { value: withPair(value), schema } : instead
}

export interface SharedOutput {
  value: ValueDesc
  schema: ValueDesc
}

/** A table whose rows repeat one row object, as a query tool's result may. */
const ROWS_SCHEMA: ValueDesc = { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } }, required: ['rows'] }

/** Valid values that hold one object twice, with their schemas: what a body returns where its own value cannot. */
export const SHARED_OUTPUTS: SharedOutput[] = [
  { value: { rows: twice({ id: 1 }) }, schema: ROWS_SCHEMA },
  { value: twice({ a: [1] }), schema: ANY_SCHEMA },
]

/** Content of text blocks, its first block held twice: one block object, two places in the content. */
function sharedBlocks<S extends ProjectionSpec | FinalizeSpec>(spec: S): S {
  if (spec.kind !== 'returns' || !Array.isArray(spec.value) || !isPlainDesc(spec.value[0]) || !isLosslessDesc(spec.value)) return spec
  return { ...spec, value: twice(spec.value[0]) }
}

function sharedInTool(t: ToolSpec, instead: SharedOutput): ToolSpec {
  const { outcome } = t.body
  const changed: ToolSpec = { ...t, render: sharedBlocks(t.render) }
  if (outcome.kind === 'return' || outcome.kind === 'until-aborted') {
    const { value, schema } = sharedValue(outcome.value, t.outputSchema, instead)
    changed.body = { ...t.body, outcome: { ...outcome, value } }
    changed.outputSchema = schema
  }
  if (t.finalize) changed.finalize = sharedBlocks(t.finalize)
  if (t.meta?.kind === 'returns' && isPlainDesc(t.meta.value)) changed.meta = { ...t.meta, value: withPair(t.meta.value) }
  return changed
}

/** Every body value, content and meta the case's tools return holds one object twice. */
export const sharedSubtrees = (s: Scenario, instead: SharedOutput): Scenario => ({ ...s, tools: s.tools.map((t) => sharedInTool(t, instead)) })
