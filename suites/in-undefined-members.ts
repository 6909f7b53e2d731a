/**
 * IN-2 for members that hold undefined: lossless JSON has "no undefined", so arguments with a key
 * whose value is undefined — at the top or nested, or an array item — end the call with an error
 * outcome before any pre-execute listener or body runs. A snapshot that drops such members "as
 * JSON.stringify writes them" runs the call.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'

type Where = 'a top-level key' | 'a nested key' | 'an array item'

export interface UndefinedMembersCase {
  /** Where the arguments hold undefined, a registry each. */
  where: Where[]
}

const ARGS: Record<Where, () => unknown> = {
  'a top-level key': () => ({ path: 'notes.txt', limit: undefined }),
  'a nested key': () => ({ path: 'notes.txt', opts: { depth: undefined } }),
  'an array item': () => ({ paths: ['a.txt', undefined] }),
}

const story = (c: UndefinedMembersCase): string[] => [
  'tool target, its body counting its runs; a pre-execute listener that counts its runs and delegates (where the adapter has that seam)',
  `in a registry each, one call to target whose arguments hold undefined in ${c.where.join(', then in ')}`,
  'each call ends as an error before the listener or the body runs',
]

export const undefinedMembers = custom(
  'IN-2', 'arguments holding undefined anywhere end the call before any listener or body runs',
  fc.record({ where: fc.shuffledSubarray<Where>(['a top-level key', 'a nested key', 'an array item'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const where of c.where) {
      const registry = await ctx.registry()
      let runs = 0
      registry.register(liveTool('target', { execute: async () => (runs++, { ok: true }) }))
      if (seamsOf(ctx.adapter).has('pre-execute')) registry.onPreExecute(async (_exec, next) => (runs++, next()))
      const result = await registry.execute(input('target', ARGS[where]() as never, { callId: 'x-undefined' }))
      const what = runs > 0 ? 'reached a listener or the body' : 'gave a success'
      if (!result.isError || runs > 0) return ctx.fail(`arguments holding undefined in ${where} ${what}`)
    }
  },
)
