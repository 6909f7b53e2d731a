/**
 * Output schemas from the portable subset (a single type, properties, required, boolean
 * additionalProperties, items, scalar enum/const, oneOf), each paired with values that match it
 * and values that do not.
 */
import fc from 'fast-check'
import type { ValueDesc } from '../scenario/types.js'
import { jsonValue, poisoned } from './values.js'

interface SchemaCase {
  schema: ValueDesc
  valid: ValueDesc[]
  invalid: ValueDesc[]
}

const cases: SchemaCase[] = [
  { schema: {}, valid: [null, 1, 'x', { a: [1] }], invalid: [] },
  {
    schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
    valid: [{ n: 1 }, { n: 0.5 }],
    invalid: [{}, { n: 'x' }, { n: 1, extra: true }, [1]],
  },
  { schema: { type: 'string' }, valid: ['', 'ok'], invalid: [1, null, ['x']] },
  { schema: { type: 'array', items: { type: 'integer' } }, valid: [[], [1, 2]], invalid: [[1.5], ['a'], {}] },
  { schema: { enum: ['a', 'b', 1] }, valid: ['a', 1], invalid: ['c', 2] },
  { schema: { const: true }, valid: [true], invalid: [false, 'true', 1] },
  { schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, valid: ['s', 3], invalid: [1.5, null] },
]

export interface OutputChoice {
  schema: ValueDesc
  value: ValueDesc
}

/** A schema and a value that passes it. */
export const validOutput: fc.Arbitrary<OutputChoice> = fc.constantFrom(...cases).chain((c) => fc.constantFrom(...c.valid).map((value) => ({ schema: c.schema, value })))

/** A schema and a value that fails it, or that is not lossless JSON at all. */
export const invalidOutput: fc.Arbitrary<OutputChoice> = fc.oneof(
  fc.constantFrom(...cases.filter((c) => c.invalid.length > 0)).chain((c) => fc.constantFrom(...c.invalid).map((value) => ({ schema: c.schema, value }))),
  poisoned.map((value) => ({ schema: {}, value })),
)

export const anyOutput: fc.Arbitrary<OutputChoice> = fc.oneof({ weight: 3, arbitrary: validOutput }, { weight: 1, arbitrary: invalidOutput })

/** `parameters` schemas for defineTool tools: open object roots. Arguments valid for one are often invalid for another. */
export const PARAMETER_SCHEMAS = [
  { type: 'object' },
  { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  { type: 'object', properties: { n: { type: 'integer' } } },
] as const

export const parametersSchema: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>(...(PARAMETER_SCHEMAS as unknown as ValueDesc[]))

export const anyJson = jsonValue
