/**
 * APR-1 when the waterfall's ask is an outer listener's: it awaits next(), gets the inner
 * listener's ask, and asks itself with a reason of its own (or none). The waterfall's decision is
 * the outer one, so its ask is the one forwarded, once, with its reason; the inner ask was overruled.
 */
import fc from 'fast-check'
import type { ApprovalRequest } from '../harness/contract/adapter.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'

interface OuterAsk {
  inner: string
  /** The outer listener's reason; absent: it asks without one. */
  outer?: string
  answer: 'allowed-once' | 'rejected'
}

const reasonWords = (reason: string | undefined) => (reason === undefined ? 'no reason' : `reason ${JSON.stringify(reason)}`)

export const outerAsk = custom(
  'APR-1', 'an ask made by an outer listener after next() is the one forwarded, once, with its own reason',
  fc.record({
    inner: fc.constantFrom('inner: overruled', ''),
    outer: fc.constantFrom('outer: the final say', ''),
    answer: fc.constantFrom<OuterAsk['answer']>('allowed-once', 'rejected'),
  }, { requiredKeys: ['inner', 'answer'] }),
  (c) => [
    `tool target; an approval service that notes each request and answers ${c.answer}`,
    `pre-execute #0 awaits next() and then asks with ${reasonWords(c.outer)}`,
    `pre-execute #1 asks with ${reasonWords(c.inner)}`,
    'one call to target by agent A',
  ],
  async (ctx, c) => {
    // An adapter whose decision comes from elsewhere than a listener waterfall has no outer listener to ask.
    if (!seamsOf(ctx.adapter).has('pre-execute')) return
    const requests: (string | undefined)[] = []
    const registry = await ctx.registry({ approval: { request: (req: ApprovalRequest) => (requests.push(req.reason), c.answer) } })
    registry.register(liveTool('target'))
    const entered: string[] = []
    registry.onPreExecute(async (_exec, next) => {
      entered.push('outer')
      await next()
      return c.outer === undefined ? { kind: 'ask' as const } : { kind: 'ask' as const, reason: c.outer }
    })
    registry.onPreExecute(async () => (entered.push('inner'), { kind: 'ask' as const, reason: c.inner }))
    await ctx.scheduler.waitFor(registry.execute(input('target', {}, { agent: registry.agent('A') })))
    // Listeners run out of registration order make another listener the outer one: PRE-1's fault, judged there.
    if (entered.join() !== 'outer,inner') return
    if (requests.length !== 1) return ctx.fail(`the approval service was asked ${requests.length} time(s) for one call`)
    if (requests[0] === c.outer) return
    ctx.fail(`the request carried ${reasonWords(requests[0])}, the waterfall's ask (the outer listener's) has ${reasonWords(c.outer)}`)
  },
)
