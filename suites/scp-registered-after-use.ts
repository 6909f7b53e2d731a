/**
 * SCP-1 for an agent's own tool registered after the agent was served: "A tool registered for
 * agent A shadows a same-named global tool for A alone". Whatever the registry learnt of A while
 * A had no tool of its own (a call, a listing, a classification) is no answer once A registers one:
 * A's next call runs A's tool, and once that is disposed of, the global one again.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { safeJson } from '../harness/property/vocabulary.js'

type Use = 'call' | 'schemas' | 'executionMode'

export interface AfterUseCase {
  /** How A is served before it registers a tool of its own, in order. */
  uses: Use[]
}

const story = (c: AfterUseCase): string[] => [
  'tool t registered globally, its body returning { layer: "global" }',
  `agent A served first: ${c.uses.join(', ')}; then t registered for A, its body returning { layer: "A" }`,
  't called as A (A\'s own runs) and as B (the global one); then A\'s t disposed of, and called as A again (the global one)',
]

export const registeredAfterUse = custom(
  'SCP-1', 'an agent\'s own tool registered after the agent was served shadows the global one for its next call',
  fc.record({ uses: fc.shuffledSubarray<Use>(['call', 'schemas', 'executionMode'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    const registry = await ctx.registry()
    const asA = { agent: registry.agent('A') }
    registry.register(liveTool('t', { execute: async () => ({ layer: 'global' }) }))
    for (const use of c.uses) {
      if (use === 'call') await registry.execute(input('t', {}, { callId: 'x-before', ...asA }))
      else if (use === 'schemas') registry.schemas(asA)
      else registry.executionMode(input('t', {}, asA))
    }
    const own = registry.register(liveTool('t', { execute: async () => ({ layer: 'A' }) }), asA)
    const ran = async (agent: 'A' | 'B', n: number) => {
      const result = await registry.execute(input('t', {}, { callId: `x-${agent}-${n}`, agent: registry.agent(agent) }))
      return result.isError ? 'an error' : safeJson((result as { value?: unknown }).value)
    }
    const expect = async (agent: 'A' | 'B', n: number, layer: string, when: string) => {
      const got = await ran(agent, n)
      if (got !== safeJson({ layer })) ctx.fail(`${when}, t called as ${agent} gave ${got}, not the ${layer === 'A' ? 'agent\'s own' : 'global'} tool's`)
    }
    await expect('A', 1, 'A', `once A registered its own t (after ${c.uses.join(', ')})`)
    await expect('B', 1, 'global', 'once A registered its own t')
    own()
    await expect('A', 2, 'global', 'once A\'s own t was disposed of')
  },
)
