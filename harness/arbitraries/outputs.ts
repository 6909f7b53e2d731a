/**
 * Output schemas from the portable subset (a single type, properties, required, boolean
 * additionalProperties, items, scalar enum/const beside their type, oneOf), each paired with values
 * that match it and values that do not (`portable-schema.ts` checks the subset).
 */
import fc from 'fast-check'
import type { ValueDesc } from '../scenario/types.js'
import { jsonValue, poisoned } from './values.js'

interface SchemaCase {
  schema: ValueDesc
  valid: ValueDesc[]
  invalid: ValueDesc[]
}

/**
 * A portable schema every JSON value passes: one branch per JSON type (oneOf needs exactly one
 * match, so `number` stands alone and `integer` is not listed beside it).
 */
export const ANY_SCHEMA: ValueDesc = {
  oneOf: [{ type: 'null' }, { type: 'boolean' }, { type: 'number' }, { type: 'string' }, { type: 'array' }, { type: 'object' }],
}

const cases: SchemaCase[] = [
  { schema: ANY_SCHEMA, valid: [null, 1, 'x', { a: [1] }], invalid: [] },
  {
    schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
    valid: [{ n: 1 }, { n: 0.5 }],
    // A key every object inherits is no declared property: `constructor` is extra all the same.
    invalid: [{}, { n: 'x' }, { n: 1, extra: true }, { n: 1, constructor: 'x' }, [1]],
  },
  // Object roots, as most tools declare (MCP's structured content and strict structured outputs are objects).
  {
    schema: { type: 'object', properties: { path: { type: 'string' }, size: { type: 'integer' } }, required: ['path'] },
    valid: [{ path: 'a' }, { path: 'a', size: 3 }, { path: '', extra: true }],
    invalid: [{ size: 1 }, { path: 1 }, { path: 'a', size: 1.5 }, 'a'],
  },
  {
    schema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'], additionalProperties: false },
    valid: [{ items: [] }, { items: ['a', 'b'] }],
    invalid: [{ items: [1] }, {}, { items: 'a' }, { items: [], more: 1 }],
  },
  { schema: { type: 'string' }, valid: ['', 'ok'], invalid: [1, null, ['x']] },
  { schema: { type: 'array', items: { type: 'integer' } }, valid: [[], [1, 2]], invalid: [[1.5], ['a'], {}] },
  { schema: { type: 'string', enum: ['a', 'b'] }, valid: ['a', 'b'], invalid: ['c', 1] },
  { schema: { type: 'integer', enum: [1, 2] }, valid: [1, 2], invalid: [3, 1.5, '1'] },
  { schema: { type: 'boolean', const: true }, valid: [true], invalid: [false, 'true', 1] },
  { schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, valid: ['s', 3], invalid: [1.5, null] },
]

export interface OutputChoice {
  schema: ValueDesc
  value: ValueDesc
}

/** A schema and a value that passes it. */
export const validOutput: fc.Arbitrary<OutputChoice> = fc.constantFrom(...cases).chain(
  (c) => fc.constantFrom(...c.valid).map((value) => ({ schema: c.schema, value })),
)

/** A schema and a value that fails it, or that is not lossless JSON at all. */
export const invalidOutput: fc.Arbitrary<OutputChoice> = fc.oneof(
  fc.constantFrom(...cases.filter((c) => c.invalid.length > 0)).chain((c) => fc.constantFrom(...c.invalid).map((value) => ({ schema: c.schema, value }))),
  poisoned.map((value) => ({ schema: ANY_SCHEMA, value })),
)

export const anyOutput: fc.Arbitrary<OutputChoice> = fc.oneof({ weight: 3, arbitrary: validOutput }, { weight: 1, arbitrary: invalidOutput })

/** `parameters` schemas for defineTool tools: open object roots. Arguments valid for one are often invalid for another. */
export const PARAMETER_SCHEMAS = [
  { type: 'object' },
  { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  { type: 'object', properties: { n: { type: 'integer' } } },
] as const

export const parametersSchema: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>(...(PARAMETER_SCHEMAS as unknown as ValueDesc[]))

/** Arguments each of PARAMETER_SCHEMAS rejects, in its order; lossless non-objects violate them all. */
const PARAMETER_VIOLATIONS: ValueDesc[][] = [[], [{}, { path: 1 }, { n: 1.5 }], [{ n: 1.5 }, { path: 'x', n: 'y' }]]
const nonObjectArguments = fc.constantFrom<ValueDesc>([], ['x'], 'x', 1, null, true)

/** Arguments that violate `parameters`, one of PARAMETER_SCHEMAS (DEF-5). */
export function invalidArguments(parameters: ValueDesc): fc.Arbitrary<ValueDesc> {
  const key = JSON.stringify(parameters)
  const own = PARAMETER_VIOLATIONS[PARAMETER_SCHEMAS.findIndex((schema) => JSON.stringify(schema) === key)] ?? []
  return own.length === 0 ? nonObjectArguments : fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: nonObjectArguments })
}

export const anyJson = jsonValue
