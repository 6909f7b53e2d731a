/**
 * OUT-1 at two corners of output validation: "a value that fails [lossless JSON or output.schema]
 * is an INVALID_TOOL_OUTPUT error outcome, never a success". A closed object schema that declares
 * no properties (`additionalProperties: false` alone) admits no key at all; and a value shaped like
 * a tool error (`isError: true`, content blocks) is a value like any other, validated against the
 * schema — never taken for the tool reporting its own error.
 */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { valueWords } from '../harness/property/vocabulary.js'
import type { JsonValue } from '../harness/contract/spec.js'

type Corner = 'a closed object with no properties declared' | 'a value shaped like a tool error'

export interface SchemaCornersCase {
  /** Which corner, a registry each. */
  corners: Corner[]
}

const CORNERS: Record<Corner, { schema: JsonValue; value: JsonValue }> = {
  'a closed object with no properties declared': { schema: { type: 'object', additionalProperties: false }, value: { leaked: 'secret' } },
  'a value shaped like a tool error': {
    schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    value: { isError: true, content: [{ type: 'text', text: 'disk full' }] },
  },
}

const story = (c: SchemaCornersCase): string[] => [
  ...c.corners.map((corner) => `in a registry of its own, ${corner}: output.schema ${valueWords(CORNERS[corner].schema)}, ` +
    `the body returns ${valueWords(CORNERS[corner].value)}`),
  'one call each: its outcome is INVALID_TOOL_OUTPUT',
]

export const schemaCorners = custom(
  'OUT-1', 'a closed object schema with no properties, or a value shaped like an error, is validated like any other',
  fc.record({ corners: fc.shuffledSubarray<Corner>(Object.keys(CORNERS) as Corner[], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const corner of c.corners) {
      const registry = await ctx.registry()
      const { schema, value } = CORNERS[corner]
      const tool = liveTool('target', { execute: async () => value })
      tool.output = { ...tool.output, schema }
      registry.register(tool)
      const result = await registry.execute(input('target', {}, { callId: 'x-corner' }))
      const code = result.isError ? codeOf(registry, result) : undefined
      if (code !== 'INVALID_TOOL_OUTPUT') return ctx.fail(`${corner} gave ${result.isError ? `an error coded ${String(code)}` : 'a success'}`)
    }
  },
)
