/**
 * OUT-2 for a presentationMeta that throws on a top-level success: "A projection that throws … is
 * an `INVALID_TOOL_OUTPUT` error." Meta is no optional extra a registry may give up on: only a
 * nested call may omit it, and a throw is an error all the same.
 */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type Thrown = 'an Error' | 'a string'

export interface ThrowingMetaCase {
  /** What presentationMeta throws, a registry each. */
  thrown: Thrown[]
}

const story = (c: ThrowingMetaCase): string[] => [
  `in a registry each, tool target whose body returns { ok: true } and whose presentationMeta throws ${c.thrown.join(', then one that throws ')}`,
  'one call to target with no parent: its outcome is INVALID_TOOL_OUTPUT',
]

export const throwingMeta = custom(
  'OUT-2', 'a presentationMeta that throws on a top-level success makes the outcome INVALID_TOOL_OUTPUT',
  fc.record({ thrown: fc.shuffledSubarray<Thrown>(['an Error', 'a string'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const thrown of c.thrown) {
      const registry = await ctx.registry()
      const tool = liveTool('target', { execute: async () => ({ ok: true }) })
      tool.output = {
        ...tool.output,
        presentationMeta: () => {
          throw thrown === 'an Error' ? new Error('no meta today') : 'no meta today'
        },
      }
      registry.register(tool)
      const result = await registry.execute(input('target', {}, { callId: 'x-meta-throws' }))
      const code = result.isError ? codeOf(registry, result) : undefined
      if (code !== 'INVALID_TOOL_OUTPUT') {
        return ctx.fail(`a presentationMeta that throws ${thrown} gave ${result.isError ? `an error coded ${String(code)}` : 'a success'}`)
      }
    }
  },
)
