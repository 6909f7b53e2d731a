/**
 * EXE-2 for calls that share one caller signal (a turn's): "whenever the caller's signal aborts,
 * the signal the body holds aborts too". Each call's wrapper replaces the signal; when the shared
 * caller signal aborts, every body's signal aborts, not only the last call's. A registry that
 * forwards aborts through one handler slot on the caller's signal (`onabort`) loses the others.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { abortDelivered, untilAborted } from './real-time.js'

export interface SharedSignalCase {
  /** Calls in flight together, all carrying one caller signal. */
  calls: number
}

const story = (c: SharedSignalCase): string[] => [
  'tool waiter: its body waits for its signal; a wrapper that calls next() with a replacement signal of its own, a new one each call',
  `${c.calls} calls to waiter carrying one caller signal; once every body runs, the caller signal aborts`,
  'every body\'s signal aborts',
]

export const sharedCallerSignal = custom(
  'EXE-2', 'calls sharing one caller signal each see it abort through their replacement signals',
  fc.record({ calls: fc.integer({ min: 2, max: 3 }) }),
  story,
  async (ctx, c) => {
    const registry = await ctx.registry()
    const held: AbortSignal[] = []
    let allStarted: () => void = () => undefined
    const started = new Promise<void>((resolve) => (allStarted = resolve))
    registry.register(liveTool('waiter', {
      execute: (async (_args: unknown, exec: { signal: AbortSignal }) => {
        if (held.push(exec.signal) === c.calls) allStarted()
        await untilAborted(exec.signal)
        return { stopped: true }
      }) as never,
    }))
    registry.onExecute((_exec, next) => next({ signal: new AbortController().signal }))
    const caller = new AbortController()
    const pending = Array.from({ length: c.calls }, (_, i) => registry.execute(input('waiter', {}, { callId: `x-waiter-${i}`, signal: caller.signal })))
    await Promise.race([started, Promise.all(pending)])
    if (held.length !== c.calls) return ctx.fail(`of ${c.calls} calls, ${held.length} bodies ran`)
    caller.abort()
    for (const signal of held) await abortDelivered(ctx.adapter, signal)
    const missed = held.flatMap((signal, i) => (signal.aborted ? [] : [i]))
    // A body whose signal never aborts never returns: its call is left to the registry's disposal.
    if (missed.length > 0) return ctx.fail(`the shared caller signal aborted, but the signal held by body ${missed.join(', ')} (of ${c.calls}) did not`)
    await Promise.all(pending.map((p) => p.catch(() => undefined)))
  },
)
