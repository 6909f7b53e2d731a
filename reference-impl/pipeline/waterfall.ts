/**
 * The waterfall shared by `tools/pre-execute`, `tools/post-execute` and the code-dispatch log:
 * listeners run in registration order, each returning a decision or awaiting `next()`; when all
 * delegate, the fallback decides. `next()` is idempotent (PRE-8): a second call returns the same
 * promise, so no later listener runs twice or is skipped. Every level's decision is normalized
 * before the level above sees it. The waterfall settles only after every listener it started has
 * settled (PRE-6), and reports whether any of them threw, even when an outer one caught it.
 */
import type { Listener, WaterfallOutcome } from './call-state.js'

export type { Listener, WaterfallOutcome } from './call-state.js'

export async function runWaterfall<D>(
  listeners: readonly Listener<D>[],
  fallback: () => D,
  normalize: (raw: unknown) => D,
): Promise<WaterfallOutcome<D>> {
  let threw = false
  const started: Promise<unknown>[] = []
  const level = (index: number): Promise<D> => {
    const run = async (): Promise<D> => {
      const listener = listeners[index]
      if (!listener) return fallback()
      let below: Promise<D> | undefined
      const next = () => (below ??= level(index + 1))
      try {
        return normalize(await listener(next))
      } catch (error) {
        threw = true
        throw error
      }
    }
    const promise = run()
    started.push(promise.catch(() => undefined))
    return promise
  }
  let decision: D | undefined
  try {
    decision = await level(0)
  } catch {
    decision = undefined
  }
  for (let i = 0; i < started.length; i++) await started[i]
  return { decision, threw }
}
