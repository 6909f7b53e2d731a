/**
 * APR-1 for a caller whose agent key the registry never handed out: "an `ask` on a call that
 * carries an agent is forwarded … exactly once". A copy of an agent's key, equal to it field by
 * field, is an agent nothing was registered for (PRE-7, ADAPTER.md), not a call with no agent: its
 * ask is forwarded like any agent's. A registry that checks keys against those it issued and takes
 * the rest for anonymous denies it without asking.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { lookalikeOf, seamsOf } from '../harness/property/vocabulary.js'
import type { ApprovalRequest } from '../harness/contract/adapter.js'

export interface LookalikeAskCase {
  /** Whether a call with the issued key comes first. */
  issuedFirst: boolean
  answer: 'allowed-once' | 'rejected'
}

export const lookalikeAgentAsk = custom(
  'APR-1', 'an ask on a call whose agent key is a look-alike the registry never issued is forwarded, once',
  fc.record({ issuedFirst: fc.boolean(), answer: fc.constantFrom<LookalikeAskCase['answer']>('allowed-once', 'rejected') }),
  (c) => [
    `tool target; an approval service that notes each request and answers ${c.answer}; a pre-execute listener that asks`,
    `${c.issuedFirst ? 'one call to target by agent A, then ' : ''}one call to target carrying a copy of A's key, ` +
      'equal to it field by field (with the scopes profile)',
  ],
  async (ctx, c) => {
    if (!ctx.adapter.profiles.includes('scopes') || !seamsOf(ctx.adapter).has('pre-execute')) return
    const requests: string[] = []
    const registry = await ctx.registry({ approval: { request: (req: ApprovalRequest) => (requests.push(req.callId), c.answer) } })
    registry.register(liveTool('target'))
    registry.onPreExecute(async () => ({ kind: 'ask' as const, reason: 'needs a human' }))
    if (c.issuedFirst) await registry.execute(input('target', {}, { callId: 'x-issued', agent: registry.agent('A') }))
    await registry.execute(input('target', {}, { callId: 'x-lookalike', agent: lookalikeOf(registry, 'A') }))
    const asked = requests.filter((id) => id === 'x-lookalike').length
    if (asked !== 1) ctx.fail(`the ask of a call carrying a look-alike of A's key was forwarded ${asked} time(s)`)
  },
)
