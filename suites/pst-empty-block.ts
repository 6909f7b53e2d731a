/**
 * PST-1 for a block with nothing to say: "block (the outcome becomes an error with the feedback as
 * content)". Feedback `[]` is well-formed content, so the outcome is an error whose content is no
 * blocks, on a success and on a tool error alike; a registry that reads an empty block as "nothing
 * to block with" publishes what the listener blocked.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { safeJson, seamsOf } from '../harness/property/vocabulary.js'

type Body = 'succeeds' | 'throws'

export interface EmptyBlockCase {
  /** What the tool's body does, a registry each. */
  bodies: Body[]
}

const story = (c: EmptyBlockCase): string[] => [
  'a post-execute listener that blocks with feedback [] (no content blocks)',
  `in a registry each, tool target whose body ${c.bodies.join(', then one whose body ')}; one call to target`,
  'each outcome is an error whose content is [], the feedback',
]

export const emptyBlock = custom(
  'PST-1', 'a block whose feedback is [] makes the outcome an error with no content',
  fc.record({ bodies: fc.shuffledSubarray<Body>(['succeeds', 'throws'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    if (!seamsOf(ctx.adapter).has('post-execute')) return
    for (const body of c.bodies) {
      const registry = await ctx.registry()
      registry.register(liveTool('target', {
        execute: async () => {
          if (body === 'throws') throw new Error('the tool failed')
          return { ok: true }
        },
      }))
      registry.onPostExecute(async () => ({ kind: 'block' as const, feedback: [] }))
      const result = await registry.execute(input('target', {}, { callId: 'x-empty-block' }))
      const content = safeJson(result.content)
      if (!result.isError || content !== '[]') {
        return ctx.fail(`a body that ${body}, blocked with feedback [], was published as ${result.isError ? 'an error' : 'a success'} with content ${content}`)
      }
    }
  },
)
