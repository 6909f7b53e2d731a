/**
 * Reaches every scenario property draws, last, whatever its clause: calls in flight at once, odd
 * thrown values, and wrappers that hand next() more than a signal. Each changes one case in four
 * and leaves the rest of a case as it was drawn.
 */
import type fc from 'fast-check'
import type { Scenario } from '../scenario/types.js'
import { nowAndThen } from './now-and-then.js'
import { withOddThrows } from './odd-throws.js'

/**
 * The calls in flight at once (the scheduler picks the interleaving), a lone call joined by a twin:
 * state one call leaves for another — an outbox, a pending ask, a cache — is then shared between
 * calls that overlap. Calls handed one callId, or met by an observer that disposes of itself, stay
 * one after another.
 */
export function inFlightAtOnce(s: Scenario): Scenario {
  if (s.concurrent || s.calls.some((c) => c.sameCallIdAs !== undefined) || s.observers.some((o) => o.disposesSelf)) return s
  const calls = s.calls.length === 1 ? [s.calls[0]!, s.calls[0]!] : s.calls
  return { ...s, calls, concurrent: true }
}

/** A wrapper that replaces the signal hands next() arguments, a name, a token… too (EXE-2: only the signal counts). */
const handingMore = (s: Scenario): Scenario =>
  (s.wrappers.some((w) => w.action.kind === 'replace-signal') ? { ...s, overridesMore: true } : s)

export const withSharedReaches = (arbitrary: fc.Arbitrary<Scenario>): fc.Arbitrary<Scenario> =>
  arbitrary.chain(nowAndThen(inFlightAtOnce)).chain(withOddThrows()).chain(nowAndThen(handingMore))
