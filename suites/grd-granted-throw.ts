/**
 * GRD-3 after a granted approval: "A guard that throws denies (fail-closed)", and "An approval
 * that was granted never bypasses the guards" (APR-3). A human's grant is no reason to read a
 * guard's throw as a broken guard to skip: the call is denied and its body never runs.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'

type Thrown = 'an Error' | 'a string'

export interface GrantedThrowCase {
  /** What the guard throws, a registry each. */
  thrown: Thrown[]
}

const story = (c: GrantedThrowCase): string[] => [
  'tool target; a pre-execute listener that asks; an approval service that answers allowed-once',
  `in a registry each, a guard that throws ${c.thrown.join(', then one that throws ')}`,
  'one call to target: it is denied, its body never runs',
]

export const grantedThenThrow = custom(
  'GRD-3', 'a guard that throws after a granted approval denies',
  fc.record({ thrown: fc.shuffledSubarray<Thrown>(['an Error', 'a string'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    if (!seamsOf(ctx.adapter).has('pre-execute')) return
    for (const thrown of c.thrown) {
      const registry = await ctx.registry({ approval: { request: () => 'allowed-once' } })
      let bodies = 0
      registry.register(liveTool('target', { execute: async () => (bodies++, { ok: true }) }))
      registry.onPreExecute(async () => ({ kind: 'ask' as const, reason: 'needs a human' }))
      let asked = 0
      registry.guard(() => {
        asked++
        throw thrown === 'an Error' ? new Error('the policy store is down') : 'the policy store is down'
      })
      const result = await registry.execute(input('target', {}, { callId: 'x-granted' }))
      // A guard never asked after the grant is APR-3's finding (a granted approval bypassing the guards), not this clause's.
      if (asked === 0) continue
      if (bodies > 0 || !result.isError) return ctx.fail(`after a granted ask, a guard that threw ${thrown} let the call ${bodies > 0 ? 'run' : 'succeed'}`)
    }
  },
)
