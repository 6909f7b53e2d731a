/**
 * Running one claim's property with fast-check and reading the run as a verdict: refuted (the
 * shrunk case, its seed and path, what it violated), not refuted within the budget, or unknown
 * (the time budget ran out, or too few generated cases were applicable). Environment errors and
 * harness bugs are rethrown: they are not verdicts.
 */
import fc from 'fast-check'
import type { JsonValue } from '../contract/spec.js'
import type { ClaimSettings } from './settings.js'
import type { Stalls } from './settle-within.js'
import type { AnyClaimId, ClaimVerdict } from './types.js'
import { ClaimViolation } from './violation.js'

export interface ClaimRun<Ts extends unknown[]> {
  id: AnyClaimId
  property: fc.IAsyncProperty<Ts>
  /** Cases to run before generated ones (the schema's edge instances). */
  examples?: Ts[]
  /** The shrunk case as JSON, for the report. */
  describeCase: (counterexample: Ts) => JsonValue
  /** Run only `examples`, stopping at the first failure, without shrinking: a replay of a saved case. */
  replay?: boolean
  /** The trials the property skipped because a call did not settle. */
  stalls: Stalls
}

export async function runClaim<Ts extends unknown[]>(run: ClaimRun<Ts>, settings: ClaimSettings): Promise<ClaimVerdict> {
  const details = await fc.check(run.property, {
    seed: settings.seed,
    numRuns: run.replay ? (run.examples?.length ?? 0) : settings.runs,
    ...(run.examples ? { examples: run.examples } : {}),
    ...(run.replay ? { endOnFailure: true } : {}),
    plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs)],
  })
  const { numRuns } = details
  if (details.failed && details.counterexample !== null) {
    const error = details.errorInstance
    if (!(error instanceof ClaimViolation)) throw error
    return {
      id: run.id,
      status: 'refuted',
      numRuns,
      reason: error.message,
      counterexample: {
        seed: details.seed,
        path: details.counterexamplePath,
        case: run.describeCase(details.counterexample as Ts),
        violations: error.violations,
        ...(error.interleaving ? { interleaving: error.interleaving.labels, schedule: error.interleaving.schedule } : {}),
      },
    }
  }
  const stalled = run.stalls.count > 0 ? `; ${run.stalls.count} skipped because ${run.stalls.first}` : ''
  if (details.interrupted) return {
    id: run.id,
    status: 'unknown',
    numRuns,
    reason: `budget exhausted: ${numRuns} of ${settings.runs} cases ran within ${settings.timeLimitMs} ms, none refuted the claim${stalled}`,
  }
  if (details.failed) return {
    id: run.id,
    status: 'unknown',
    numRuns,
    reason: `only ${numRuns} of ${settings.runs} generated cases were applicable (${details.numSkips} skipped${stalled}), none refuted the claim`,
  }
  return { id: run.id, status: 'not-refuted', numRuns, ...(stalled ? { reason: stalled.slice(2) } : {}) }
}
