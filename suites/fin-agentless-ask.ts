/**
 * FIN-2 for an ask on a call with no agent: whether the registry forwards it or denies it without
 * asking (APR-1 allows both), and with no approval service at all (PRE-5's denial), the outcome is
 * one of the call's outcomes, so the tool's finalizeContent runs for it exactly once. A registry
 * that refuses such an ask by publishing its refusal at once skips the last mile.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'

type Approval = 'none' | 'allowed-once' | 'rejected'

export interface AgentlessAskCase {
  /** The approval service's answers, a registry each: its answer, or no service configured. */
  approvals: Approval[]
  /** Whether a post-execute listener (that accepts) is registered too. */
  post: boolean
}

const agentlessAskCases: fc.Arbitrary<AgentlessAskCase> = fc.record({
  approvals: fc.shuffledSubarray<Approval>(['none', 'allowed-once', 'rejected'], { minLength: 3 }),
  post: fc.boolean(),
})

const serviceWords = (approval: Approval) => (approval === 'none' ? 'no approval service' : `an approval service that answers ${approval}`)

const story = (c: AgentlessAskCase): string[] => [
  'tool target with a finalizeContent that counts its calls', `a pre-execute listener that asks${c.post ? '; a post-execute listener that accepts' : ''}`,
  `in a registry each, with ${c.approvals.map(serviceWords).join(', then ')}: one call to target with no agent`,
  'forwarded or denied without asking, each outcome is finalized once',
]

export const agentlessAsk = custom(
  'FIN-2', 'an ask on a call with no agent, forwarded or denied without asking, is finalized once',
  agentlessAskCases,
  story,
  async (ctx, c) => {
    const seams = seamsOf(ctx.adapter)
    if (!seams.has('pre-execute')) return
    for (const approval of c.approvals) {
      const service = approval === 'none' ? undefined : { request: () => approval }
      const registry = await ctx.registry(service ? { approval: service } : {})
      let finalized = 0
      registry.register(liveTool('target', { finalizeContent: () => (finalized++, [{ type: 'text', text: 'final card' }]) }))
      registry.onPreExecute(async () => ({ kind: 'ask' as const, reason: 'needs a human' }))
      if (c.post && seams.has('post-execute')) registry.onPostExecute(async () => ({ kind: 'accept' as const }))
      await registry.execute(input('target', {}, { callId: 'x-agentless' }))
      if (finalized !== 1) return ctx.fail(`with ${serviceWords(approval)}, the call's finalizeContent ran ${finalized} times, expected once`)
    }
  },
)
