/**
 * What a conformance property is: the clause it checks (as data the report reads), a generator of
 * JSON cases, and a run that turns one case into violations. Suites declare these; the runner
 * checks them; reporters read the verdicts.
 */
import type fc from 'fast-check'
import type { ConformanceAdapter, Profile } from '../contract/adapter.js'
import type { Level } from '../contract/clauses.js'
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'

export interface CaseOutcome {
  violations: Violation[]
  trace?: Trace
  /** The adapter itself failed (create threw, a required method is missing): exit 2, not a verdict. */
  adapterError?: string
  /** The implementation refused a registration this case needs: the case is skipped, not judged. */
  refused?: string
  /** The process running the implementation ended during the case: the clause is judged from it, no case runs after. */
  implementationEnded?: true
}

export interface ConformanceProperty<Case = unknown> {
  /** The clause this property certifies. */
  readonly id: string
  readonly level: Exclude<Level, 'claim'>
  readonly profile: Profile
  /** Starts with the clause ID and reads as the rule. */
  readonly title: string
  readonly arbitrary: fc.Arbitrary<Case>
  /** A cap on generated cases, for properties that must spend real time (timeouts). */
  readonly maxRuns?: number
  run(adapter: ConformanceAdapter, testCase: Case, scheduler: fc.Scheduler): Promise<CaseOutcome>
  /**
   * The case told for a person, a line each thing it sets up, in words rather than JSON (a failure's
   * "what happened"). Saved with a counterexample, since the reports are made where no suite is loaded.
   */
  story?(testCase: Case): string[]
}

/** A property's story of a case, or undefined when it has none or telling it throws (a story never changes a verdict). */
export function storyOf<Case>(property: Pick<ConformanceProperty<Case>, 'story'>, testCase: Case): string[] | undefined {
  try {
    const lines = property.story?.(testCase)
    return Array.isArray(lines) && lines.every((line) => typeof line === 'string') ? lines : undefined
  } catch {
    return undefined
  }
}

/** A property's clause is broken when the run reports a violation naming it. */
export const violationsOf = (property: { id: string }, outcome: CaseOutcome) => outcome.violations.filter((v) => v.clause === property.id)
