/**
 * CLM-2's stress mode: instead of fast-check's scheduler deciding every release, each start and
 * pause() waits a pseudo-random real-timer delay, so the tool's own uninstrumented awaits (file
 * system, network, timers) interleave too. It serves the two scheduler methods the CLM-2 harness
 * uses; the release order it produced is recorded by that harness, and a replay follows it.
 */
import fc from 'fast-check'

/** Upper bound of one release's delay: long enough to reorder I/O callbacks, short enough for many trials. */
const MAX_DELAY_MS = 3

type StressScheduler = Pick<fc.Scheduler, 'schedule' | 'waitFor'>

function stressScheduler(seed: number): StressScheduler {
  let state = seed >>> 0 || 1
  const nextDelay = () => {
    // xorshift32: a seeded stream of delays, so a run's delays are printed as one number.
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) % (MAX_DELAY_MS + 1)
  }
  return {
    schedule: <T>(task: Promise<T>) => task.then((value) => new Promise<T>((resolve) => setTimeout(() => resolve(value), nextDelay()))),
    waitFor: <T>(work: Promise<T>) => work,
  } as StressScheduler
}

/** Schedulers under real timers, one per generated seed (shown as `stress(seed)` in a failure). */
export const stressSchedulers: fc.Arbitrary<fc.Scheduler> = fc
  .integer({ min: 1, max: 2 ** 31 - 1 })
  .map((seed) => Object.assign(stressScheduler(seed), { toString: () => `stress(${seed})` }) as unknown as fc.Scheduler)
