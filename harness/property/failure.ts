/** What a property check hands back when a case fails: the case, its schedule, what broke, and where it was found. */
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'

/** One failing case: what ran, how the scheduler ordered it, what broke. */
export interface FailingCase {
  testCase: unknown
  /** Task ids in the order the scheduler released them: replays the interleaving exactly. */
  schedule: number[]
  violations: Violation[]
  trace: Trace | undefined
}

export interface Failure extends FailingCase {
  seed: number
  path: string
  /** How many generated cases ran before the first failure (runs-to-detection). */
  numRuns: number
  numShrinks: number
  /** The check the original case broke; every shrunk step broke it too. */
  check: string
  /** The case first found, before shrinking (its trace is left out: the shrunk case's is the one to read). */
  original: Omit<FailingCase, 'trace'>
}
