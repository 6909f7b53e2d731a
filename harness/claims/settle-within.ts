/** Waiting for a promise with a real-time bound, without leaving the timer behind. */
import fc from 'fast-check'

export type Settled<T> = { settled: true; value: T } | { settled: false }

export async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Settled<T>>((resolve) => (timer = setTimeout(() => resolve({ settled: false }), ms)))
  try {
    return await Promise.race([promise.then((value): Settled<T> => ({ settled: true, value })), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Trials whose calls did not settle in time. Such a trial neither confirms nor refutes a claim,
 * so it is skipped (a failure would send fast-check shrinking through more stalls) and counted,
 * for the verdict's reason.
 */
export class Stalls {
  count = 0
  first: string | undefined

  /** Skips the current case. */
  skip(what: string): never {
    this.count++
    this.first ??= what
    fc.pre(false)
    throw new Error('unreachable: fc.pre(false) throws')
  }
}
