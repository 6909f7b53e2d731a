/**
 * PRE-1 for a decision a listener changes in place: "when all delegate (or none exist) the
 * decision is `allow`" — for every call. A listener that rewrites the decision next() handed it (to
 * deny its own call) changes that decision only: once it is gone, a call with no listener, or with
 * listeners that all delegate, is allowed. A registry whose fallback allow is one shared, writable
 * object denies every later call.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'
import type { PreToolDecision } from '../harness/contract/spec.js'

type Then = 'no listener' | 'a listener that delegates'

export interface FallbackChangedCase {
  /** What stands before the later call, a registry each. */
  then: Then[]
}

const story = (c: FallbackChangedCase): string[] => [
  'tool target; a pre-execute listener that awaits next() and writes { kind: "deny", reason: "risky" } into the decision it got, then returns it',
  'one call to target (denied); the listener disposed of',
  `in a registry each, then ${c.then.join(', then ')}: one more call to target, which is allowed and runs`,
]

/** Turns the decision it was handed into a denial, in place where it can, and answers it. */
async function rewriting(next: () => Promise<PreToolDecision>): Promise<PreToolDecision> {
  const decision = await next()
  try {
    Object.assign(decision, { kind: 'deny', reason: 'risky' })
    return decision
  } catch {
    return { kind: 'deny', reason: 'risky' }
  }
}

export const fallbackChanged = custom(
  'PRE-1', 'a listener that rewrites the decision next() gave it changes no later call\'s fallback allow',
  fc.record({ then: fc.shuffledSubarray<Then>(['no listener', 'a listener that delegates'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    if (!seamsOf(ctx.adapter).has('pre-execute')) return
    for (const then of c.then) {
      const registry = await ctx.registry()
      let runs = 0
      registry.register(liveTool('target', { execute: async () => (runs++, { ok: true }) }))
      const dispose = registry.onPreExecute((_exec, next) => rewriting(next))
      await registry.execute(input('target', {}, { callId: 'x-first' }))
      dispose()
      if (then === 'a listener that delegates') registry.onPreExecute((_exec, next) => next())
      const before = runs
      const later = await registry.execute(input('target', {}, { callId: 'x-later' }))
      if (later.isError || runs === before) return ctx.fail(`with ${then} left, a later call was ${later.isError ? 'denied' : 'not run'}`)
    }
  },
)
