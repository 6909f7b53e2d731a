/**
 * A fast-check arbitrary for the values a JSON Schema describes — the schemas tools use for
 * `parameters`: type (one or several), properties, required, items (and tuple items), enum,
 * const, oneOf/anyOf/allOf, local $ref, and the numeric, length and item-count bounds. Values
 * shrink the way fast-check's own do: optional properties toward absent, arrays toward short,
 * numbers toward 0 (or the nearest bound), strings toward short, enums toward their first entry.
 * Keywords it does not generate for (not, if/then, patternProperties, multipleOf, format…) are
 * listed by `ignoredKeywords`; callers check every value against the whole schema with ajv, so
 * an ignored keyword can only cost skipped cases, never an invalid argument.
 */
import fc from 'fast-check'
import { jsonValue } from './values.js'
import type { JsonValue } from '../contract/spec.js'

type Schema = { [k: string]: unknown }

const anyJson = jsonValue as fc.Arbitrary<JsonValue>
const EXTRA_ITEMS = 4
const EXTRA_LENGTH = 8
const MAX_REF_DEPTH = 3

const GENERATED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems',
  'enum', 'const', 'oneOf', 'anyOf', 'allOf', '$ref', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern',
])
/** Keywords whose value is a map of names to schemas, and keywords whose value is data, not schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'])
const VALUES = new Set(['const', 'enum', 'default', 'examples', 'required'])
const ANNOTATIONS = new Set([
  '$schema', '$id', '$comment', '$defs', 'definitions',
  'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
])

export function schemaArbitrary(schema: unknown): fc.Arbitrary<JsonValue> {
  return arbitraryFor(schema, schema, 0)
}

function arbitraryFor(schema: unknown, root: unknown, refDepth: number): fc.Arbitrary<JsonValue> {
  if (schema === true || schema === undefined) return anyJson
  if (typeof schema !== 'object' || schema === null) return fc.constant(null)
  const s = schema as Schema
  const sub = (child: unknown, depth = refDepth) => arbitraryFor(child, root, depth)
  if (typeof s.$ref === 'string') {
    const target = resolveRef(root, s.$ref)
    if (target === undefined || refDepth >= MAX_REF_DEPTH) return fc.constant(null)
    return sub(withoutKey({ ...s, ...(target as Schema) }, '$ref'), refDepth + 1)
  }
  if ('const' in s) return fc.constant(s.const as JsonValue)
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as JsonValue[]))
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = s[key]
    if (Array.isArray(branches) && branches.length > 0) {
      const rest = withoutKey(s, key)
      return fc.oneof(...branches.map((b) => sub(merge(rest, b))))
    }
  }
  if (Array.isArray(s.allOf)) return sub((s.allOf as unknown[]).reduce<Schema>((acc, b) => merge(acc, b), withoutKey(s, 'allOf')))
  const types = typesOf(s)
  if (types.length === 0) return anyJson
  return fc.oneof(...types.map((t) => forType(t, s, sub)))
}

function forType(type: string, s: Schema, sub: (child: unknown) => fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return integerIn(s)
    case 'number':
      return fc.oneof(integerIn(s), doubleIn(s))
    case 'string':
      return stringFor(s)
    case 'array':
      return arrayFor(s, sub)
    case 'object':
      return objectFor(s, sub)
    default:
      return anyJson
  }
}

function integerIn(s: Schema): fc.Arbitrary<JsonValue> {
  const lo = bound(s.minimum, s.exclusiveMinimum, +1)
  const hi = bound(s.maximum, s.exclusiveMaximum, -1)
  let min = Math.max(Number.MIN_SAFE_INTEGER, Math.ceil(lo ?? -(2 ** 31)))
  let max = Math.min(Number.MAX_SAFE_INTEGER, Math.floor(hi ?? 2 ** 31 - 1))
  if (hi === undefined && min > max) max = Math.min(Number.MAX_SAFE_INTEGER, min + 1000)
  if (lo === undefined && min > max) min = Math.max(Number.MIN_SAFE_INTEGER, max - 1000)
  if (min > max) return fc.constant(null)
  return fc.integer({ min, max })
}

function doubleIn(s: Schema): fc.Arbitrary<JsonValue> {
  const min = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : typeof s.minimum === 'number' ? s.minimum : undefined
  const max = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : typeof s.maximum === 'number' ? s.maximum : undefined
  return fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(min !== undefined ? { min, minExcluded: typeof s.exclusiveMinimum === 'number' } : {}),
      ...(max !== undefined ? { max, maxExcluded: typeof s.exclusiveMaximum === 'number' } : {}),
    })
    .map((n) => (n === 0 ? 0 : n)) // -0 is not lossless JSON
}

function stringFor(s: Schema): fc.Arbitrary<JsonValue> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : minLength + EXTRA_LENGTH
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern, 'u'))
    } catch {
      // A pattern JavaScript cannot compile: plain strings, and ajv decides.
    }
  }
  return fc.string({ minLength, maxLength })
}

function arrayFor(s: Schema, sub: (child: unknown) => fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined
  if (tuple) return fc.tuple(...(tuple as unknown[]).map((item) => sub(item)))
  const minLength = typeof s.minItems === 'number' ? s.minItems : 0
  const maxLength = typeof s.maxItems === 'number' ? s.maxItems : minLength + EXTRA_ITEMS
  const item = sub(s.items === undefined ? true : s.items)
  if (s.uniqueItems === true) return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
  return fc.array(item, { minLength, maxLength })
}

function objectFor(s: Schema, sub: (child: unknown) => fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> {
  const properties = isObject(s.properties) ? s.properties : {}
  const required = Array.isArray(s.required) ? (s.required as unknown[]).filter((k): k is string => typeof k === 'string') : []
  const shape: Record<string, fc.Arbitrary<JsonValue>> = {}
  for (const [key, child] of Object.entries(properties)) shape[key] = sub(child)
  for (const key of required) shape[key] ??= anyJson
  if (Object.keys(shape).length === 0) {
    return s.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 4 }), anyJson, { maxKeys: 2 })
  }
  return fc.record(shape, { requiredKeys: required }) as fc.Arbitrary<JsonValue>
}

/** The JSON types a schema admits, inferred from its keywords when `type` is absent. */
export function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type]
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string')
  if (isObject(s.properties) || Array.isArray(s.required)) return ['object']
  if ('items' in s || 'prefixItems' in s) return ['array']
  return []
}

/** Keywords anywhere in the schema that the generator does not use (ajv still enforces them). */
export function ignoredKeywords(schema: unknown): string[] {
  const found = new Set<string>()
  const walk = (node: unknown, isSchemaMap: boolean) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, false))
    if (!isObject(node)) return
    for (const [key, value] of Object.entries(node)) {
      if (isSchemaMap) {
        walk(value, false)
        continue
      }
      if (!GENERATED.has(key) && !ANNOTATIONS.has(key)) found.add(key)
      if (!VALUES.has(key)) walk(value, SCHEMA_MAPS.has(key))
    }
  }
  walk(schema, false)
  return [...found].sort()
}

export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isObject(node) && !Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** `a` with `b`'s keywords added; properties and required are united (allOf, oneOf branches). */
export function merge(a: Schema, b: unknown): Schema {
  if (!isObject(b)) return a
  const out: Schema = { ...a, ...b }
  if (isObject(a.properties) && isObject(b.properties)) out.properties = { ...a.properties, ...b.properties }
  if (Array.isArray(a.required) && Array.isArray(b.required)) out.required = [...new Set([...a.required, ...b.required])]
  return out
}

function bound(inclusive: unknown, exclusive: unknown, step: number): number | undefined {
  if (typeof exclusive === 'number') return Number.isInteger(exclusive) ? exclusive + step : exclusive
  return typeof inclusive === 'number' ? inclusive : undefined
}

function withoutKey(s: Schema, key: string): Schema {
  const { [key]: _dropped, ...rest } = s
  return rest
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
