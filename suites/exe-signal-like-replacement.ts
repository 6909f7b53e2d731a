/**
 * EXE-2 for a replacement that only looks like a signal (a polyfill's, another realm's): "a
 * replacement cannot hide cancellation: whenever the caller's signal aborts, the signal the body
 * holds aborts too." Whatever a registry makes of such a replacement, the body's signal still
 * aborts with the caller's; one that hands the look-alike to the body as it is, unfused, does not.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { abortDelivered } from './real-time.js'
import { registerWaiter } from './exe-waiter.js'

export interface SignalLikeCase {
  /** Whether the look-alike claims to be aborted already (a wrapper's own cancellation). */
  claimsAborted: boolean[]
}

/** An object with AbortSignal's members that is no AbortSignal. */
const signalLike = (aborted: boolean) => ({
  aborted,
  reason: undefined,
  onabort: null,
  throwIfAborted() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => true,
})

const story = (c: SignalLikeCase): string[] => [
  'tool waiter: its body waits for its signal to abort',
  `in a registry each, a wrapper that calls next() with an object shaped like an AbortSignal that is none${
    c.claimsAborted.map((a) => (a ? ' (claiming to be aborted)' : ' (claiming to be live)')).join(', then')}`,
  'one call to waiter; once its body runs, the caller signal aborts: the signal the body holds aborts',
]

export const signalLikeReplacement = custom(
  'EXE-2', 'a replacement that only looks like a signal cannot hide the caller\'s abort',
  fc.record({ claimsAborted: fc.shuffledSubarray([false, true], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const claimsAborted of c.claimsAborted) {
      const registry = await ctx.registry()
      const waiter = registerWaiter(registry)
      registry.onExecute((_exec, next) => next({ signal: signalLike(claimsAborted) as unknown as AbortSignal }))
      const caller = new AbortController()
      const pending = registry.execute(input('waiter', {}, { callId: 'x-waiter', signal: caller.signal }))
      await Promise.race([waiter.running, pending])
      const held = waiter.held()
      // A registry may refuse the look-alike, or take it for aborted: then no body waits.
      if (!held) continue
      caller.abort()
      await abortDelivered(ctx.adapter, held)
      // A body whose signal never aborts never returns: its call is left to the registry's disposal.
      if (!held.aborted) return ctx.fail('the caller signal aborted, but the signal the body held (given a look-alike replacement) did not')
      await pending
    }
  },
)
