/**
 * FIN-2 for calls whose arguments are odd: "invoked exactly once for every outcome of a call whose
 * tool was visible … — success, …, invalid arguments". Arguments that are the JSON value null (a
 * raw tool takes what it is given) and arguments that are not lossless JSON (an INVALID_ARGS
 * outcome) are finalized like any other call's: a registry that reads `arguments === null` as
 * "nothing to render from" skips both.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type Arguments = 'null' | 'a BigInt inside'

export interface OddArgumentsCase {
  /** The call's arguments, a registry each. */
  args: Arguments[]
}

const ARGS: Record<Arguments, () => unknown> = { null: () => null, 'a BigInt inside': () => ({ n: 1n }) }

const story = (c: OddArgumentsCase): string[] => [
  'tool target (a raw definition: it owns its validation) with a finalizeContent that counts its calls',
  `in a registry each, one call to target whose arguments are ${c.args.join(', then one whose arguments hold ')}`,
  'each outcome, a success or INVALID_ARGS, is finalized once',
]

export const oddArguments = custom(
  'FIN-2', 'a call whose arguments are null or not lossless JSON is finalized once',
  fc.record({ args: fc.shuffledSubarray<Arguments>(['null', 'a BigInt inside'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const args of c.args) {
      const registry = await ctx.registry()
      let finalized = 0
      registry.register(liveTool('target', { finalizeContent: () => (finalized++, [{ type: 'text', text: 'final card' }]) }))
      await registry.execute(input('target', ARGS[args]() as never, { callId: 'x-odd-arguments' }))
      if (finalized !== 1) return ctx.fail(`a call whose arguments are ${args} had its finalizeContent run ${finalized} times, expected once`)
    }
  },
)
