/**
 * Richer `parameters` for defineTool tools, each with arguments that pass it and arguments a loose
 * validator lets by: a `oneOf` whose branches overlap (an integer matches both), strings where the
 * schema wants numbers or booleans (what type coercion accepts), enums, nested required keys and
 * closed nested objects (null and arrays where an object belongs). All stay in SPEC's portable
 * subset, with an open object root.
 */
import fc from 'fast-check'
import type { ValueDesc } from '../scenario/types.js'

interface ParameterCase {
  parameters: ValueDesc
  valid: ValueDesc[]
  invalid: ValueDesc[]
}

const CASES: ParameterCase[] = [
  {
    parameters: { type: 'object', properties: { id: { oneOf: [{ type: 'integer' }, { type: 'number' }] } }, required: ['id'] },
    valid: [{ id: 1.5 }],
    invalid: [{ id: 3 }, { id: 0 }, { id: '3' }],
  },
  {
    parameters: { type: 'object', properties: { flag: { type: 'boolean' }, count: { type: 'integer' } } },
    valid: [{ flag: true, count: 2 }, {}],
    invalid: [{ flag: 'true' }, { count: '5' }, { flag: 1 }, { count: 2.5 }],
  },
  {
    parameters: { type: 'object', properties: { mode: { type: 'string', enum: ['r', 'w'] } }, required: ['mode'] },
    valid: [{ mode: 'r' }, { mode: 'w', other: 1 }],
    invalid: [{ mode: 'x' }, { mode: null }, {}, { mode: ['r'] }],
  },
  {
    parameters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    valid: [{ tags: [] }, { tags: ['a'] }],
    invalid: [{ tags: 'a' }, { tags: [1] }, { tags: { 0: 'a' } }],
  },
  {
    parameters: {
      type: 'object',
      properties: { opts: { type: 'object', properties: { deep: { type: 'boolean' } }, required: ['deep'], additionalProperties: false } },
    },
    valid: [{ opts: { deep: false } }, {}],
    invalid: [{ opts: {} }, { opts: { deep: true, more: 1 } }, { opts: { deep: 'false' } }, { opts: null }, { opts: [] }],
  },
]

/** A rich `parameters` schema and `count` arguments for it, invalid ones two times in three. */
export const parameterCase = (count: number): fc.Arbitrary<{ parameters: ValueDesc; args: ValueDesc[] }> =>
  fc.constantFrom(...CASES).chain((c) =>
    fc.array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...c.invalid) }, { weight: 1, arbitrary: fc.constantFrom(...c.valid) }), {
      minLength: count,
      maxLength: count,
    }).map((args) => ({ parameters: c.parameters, args })),
  )
