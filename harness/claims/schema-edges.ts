/**
 * The two edge instances of a schema, tried before any generated case: the sparsest (required
 * properties only, shortest arrays and strings, numbers nearest 0) and the fullest (every
 * property, one item in every array). Either may miss the schema; callers keep the valid ones.
 */
import type { JsonValue } from '../contract/spec.js'
import { isObject, merge, resolveRef, typesOf } from '../arbitraries/schema-arbitrary.js'

export function edgeInstances(schema: unknown): JsonValue[] {
  const sparse = instance(schema, schema, false, 0)
  const full = instance(schema, schema, true, 0)
  return JSON.stringify(sparse) === JSON.stringify(full) ? [sparse] : [sparse, full]
}

function instance(schema: unknown, root: unknown, full: boolean, depth: number): JsonValue {
  if (!isObject(schema) || depth > 8) return null
  const next = (child: unknown) => instance(child, root, full, depth + 1)
  if (typeof schema.$ref === 'string') return next(merge({ ...schema, $ref: undefined }, resolveRef(root, schema.$ref)))
  if ('const' in schema) return schema.const as JsonValue
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key]
    if (Array.isArray(branches) && branches.length > 0) return next(merge({ ...schema, [key]: undefined }, branches[0]))
  }
  if (Array.isArray(schema.allOf)) {
    return next((schema.allOf as unknown[]).reduce<Record<string, unknown>>((acc, b) => merge(acc, b), { ...schema, allOf: undefined }))
  }
  switch (typesOf(schema)[0]) {
    case 'boolean':
      return false
    case 'integer':
    case 'number':
      return nearestZero(schema)
    case 'string':
      return 'a'.repeat(typeof schema.minLength === 'number' ? schema.minLength : 0)
    case 'array': {
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, full ? 1 : 0)
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined
      if (tuple) return tuple.map(next)
      return Array.from({ length: count }, () => next(schema.items))
    }
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {}
      const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []
      const out: { [k: string]: JsonValue } = {}
      for (const key of full ? [...new Set([...Object.keys(properties), ...required])] : required) out[key] = next(properties[key])
      return out
    }
    default:
      return null
  }
}

function nearestZero(schema: Record<string, unknown>): number {
  const lo = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : typeof schema.minimum === 'number' ? schema.minimum : undefined
  const hi = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : typeof schema.maximum === 'number' ? schema.maximum : undefined
  if (lo !== undefined && lo > 0) return Math.ceil(lo)
  if (hi !== undefined && hi < 0) return Math.floor(hi)
  return 0
}
