/**
 * OUT-1 for an array that is a class instance: lossless JSON holds "dense plain arrays" and no
 * "class instances", so a value holding an Array subclass — at its top or inside — is no value a
 * success may carry: the outcome is INVALID_TOOL_OUTPUT. A snapshot that tells arrays by
 * `Array.isArray` and copies them item by item publishes it as a plain array.
 */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type Where = 'top' | 'nested'

export interface ArraySubclassCase {
  /** Where the body's value holds the Array subclass, a registry each. */
  where: Where[]
}

class Rows extends Array<number> {}

const rows = (): Rows => Rows.from([1, 2, 3]) as Rows

const story = (c: ArraySubclassCase): string[] => [
  `in a registry each, tool target whose body returns ${c.where.map((w) => (w === 'top' ? 'a Rows [1, 2, 3]' : '{ rows: a Rows [1, 2, 3] }')).join(', then ')}`,
  '(Rows extends Array: a class instance); one call to target: its outcome is INVALID_TOOL_OUTPUT',
]

export const arraySubclass = custom(
  'OUT-1', 'a value holding an Array subclass instance is INVALID_TOOL_OUTPUT',
  fc.record({ where: fc.shuffledSubarray<Where>(['top', 'nested'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const where of c.where) {
      const registry = await ctx.registry()
      registry.register(liveTool('target', { execute: async () => (where === 'top' ? rows() : { rows: rows() }) as never }))
      const result = await registry.execute(input('target', {}, { callId: 'x-rows' }))
      const code = result.isError ? codeOf(registry, result) : undefined
      if (code !== 'INVALID_TOOL_OUTPUT') {
        return ctx.fail(`a body value holding an Array subclass (${where}) gave ${result.isError ? `an error coded ${String(code)}` : 'a success'}`)
      }
    }
  },
)
