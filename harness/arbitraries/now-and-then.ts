/**
 * A reach added to a generator without moving its other draws: the case changed in one case of
 * `every` (a quarter unless given), the choice drawn after the rest of the case, so each case's
 * other values are what they were before the reach was added. The choice never shrinks: a shrunk
 * case keeps the change only when the case that failed had it.
 */
import fc from 'fast-check'

export const nowAndThen = <T>(change: (value: T) => T, every = 4) =>
  (value: T): fc.Arbitrary<T> => fc.noShrink(fc.nat(every - 1)).map((k) => (k === 0 ? change(value) : value))

/** The same, the change taking a value of its own, drawn with the choice. */
export const nowAndThenWith = <T, X>(extra: fc.Arbitrary<X>, change: (value: T, x: X) => T, every = 4) =>
  (value: T): fc.Arbitrary<T> => fc.noShrink(fc.tuple(fc.nat(every - 1), extra)).map(([k, x]) => (k === 0 ? change(value, x) : value))
