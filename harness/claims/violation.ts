/** What a trial throws: a claim it saw broken, or an environment (setup/observe/teardown) that failed. */
import type { Violation } from './types.js'

export class ClaimViolation extends Error {
  constructor(
    readonly violations: Violation[],
    /** CLM-2: the refuting run's release order, as labels and as task ids. */
    readonly interleaving?: { labels: string[]; schedule: number[] },
  ) {
    super(violations.map((v) => v.detail).join('; '))
  }
}

/** Throws a ClaimViolation when any violation was seen. */
export function assertNoViolation(violations: Violation[]): void {
  if (violations.length > 0) throw new ClaimViolation(violations)
}

/** The tool module's own lifecycle failed: not a verdict on a claim, a bad module (exit 2). */
export class EnvironmentError extends Error {}
