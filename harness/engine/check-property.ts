/**
 * Checking one property against one adapter with fast-check: generation, scheduler-ordered
 * interleavings, shrinking. A failure comes back as data (seed, path, the shrunk case, its
 * schedule, violations and trace, and the original case it was shrunk from), to be formatted and
 * saved elsewhere. Shrinking keeps only cases that break the same check of the clause as the
 * original failure; a check that throws for a reason of its own is a harness error, not a verdict.
 */
import fc from 'fast-check'
import type { ConformanceAdapter } from '../contract/adapter.js'
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'
import { breaksSameCheck, checkOf } from './check-identity.js'
import type { FailingCase, Failure } from '../property/failure.js'
import { violationsOf, type CaseOutcome, type ConformanceProperty } from '../property/property.js'
import { replayScheduler } from './replay-scheduler.js'
import { describeThrown } from '../safe/safe-read.js'
import { mismatchFor, seamMismatches } from '../seams.js'
import { arbitraryFor, fitExamples } from './fit-cases.js'

export interface CheckOptions {
  runs: number
  seed: number
  /** Replay one failing path of a previous run (fast-check's `path`). */
  path?: string
  /** Shrink a failure to a minimal case (default); off when only detection matters (kill checks). */
  shrink?: boolean
  /** How long shrinking may take (SHRINK_BUDGET_MS by default). */
  shrinkBudgetMs?: number
  /** Keep any failing candidate while shrinking (fast-check's default), not only the original check's. */
  unconstrainedShrink?: boolean
  /** Cases to run first, before generation (the regression corpus), each with its schedule. */
  examples?: readonly { testCase: unknown; schedule: number[] }[]
  /** Runs each case under supervision (the watchdog and escape traps of `toolreg certify`). */
  supervise?: (testCase: unknown, run: () => Promise<CaseOutcome>) => Promise<CaseOutcome>
}

export type { FailingCase, Failure } from '../property/failure.js'

export type PropertyVerdict =
  /** `refused`: cases skipped because the implementation refused a registration (harness errors). */
  | { status: 'passed'; numRuns: number; refused?: string[] }
  | { status: 'failed'; failure: Failure }
  | { status: 'error'; error: string }

class AdapterError extends Error {}

/**
 * Shrinking stops after this long and keeps the smallest failing case found so far: a failure
 * that hangs (or copies 50 MB) costs its budget on every candidate, and forty of them would hold
 * the clause for a minute. Shrinking a failure usually takes well under a second.
 */
export const SHRINK_BUDGET_MS = 10_000

export async function checkProperty(property: ConformanceProperty, adapter: ConformanceAdapter, options: CheckOptions): Promise<PropertyVerdict> {
  let original: (FailingCase & { check: string }) | undefined
  let last: FailingCase | undefined
  let harnessError: unknown
  const refused: string[] = []
  let judgedCases = 0
  // After an adapter or harness error the clause has no verdict to find: shrinking would only
  // restart a dying implementation once per candidate, so every later case passes unrun.
  let stopped = false
  const mismatch = mismatchFor(property.id, await seamProblems(adapter))
  if (mismatch) return { status: 'error', error: mismatch }
  let shrinkingSince: number | undefined
  const predicate = async (testCase: unknown, scheduler: fc.Scheduler) => {
    if (stopped) return true
    if (shrinkingSince !== undefined && Date.now() - shrinkingSince > (options.shrinkBudgetMs ?? SHRINK_BUDGET_MS)) return true
    const run = () => property.run(adapter, testCase, scheduler)
    let outcome: CaseOutcome
    try {
      outcome = await (options.supervise ? options.supervise(testCase, run) : run())
    } catch (error) {
      harnessError ??= error
      stopped = true
      throw error
    }
    if (outcome.adapterError) {
      stopped = true
      throw new AdapterError(outcome.adapterError)
    }
    // A refused registration costs only its own case (SPEC.md "Output schemas").
    if (outcome.refused) return void refused.push(outcome.refused)
    judgedCases++
    const violations = violationsOf(property, outcome)
    if (violations.length === 0) return true
    const found: FailingCase = { testCase, schedule: releasedOrder(scheduler), violations, trace: outcome.trace }
    // The implementation's process ended in this case: it is the counterexample, and nothing is left to run.
    if (outcome.implementationEnded) stopped = true
    if (!original) {
      original = { ...found, check: checkOf(violations[0]!) }
      shrinkingSince = Date.now()
    }
    // A shrink candidate that breaks another check is not this failure: treat it as passing.
    else if (!options.unconstrainedShrink && !breaksSameCheck(original.violations[0]!, violations)) return true
    last = found
    return false
  }
  // Corpus cases are fitted to the adapter like generated ones (fit-cases.ts).
  const examples = fitExamples(property, adapter, options.examples ?? [])
  const details = await fc.check(fc.asyncProperty(arbitraryFor(property, adapter), fc.scheduler(), predicate), {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    ...(examples.length ? { examples: examples.map((c) => [c.testCase, replayScheduler(c.schedule)] as [unknown, fc.Scheduler]) } : {}),
    endOnFailure: options.shrink === false,
  })
  if (harnessError !== undefined) return { status: 'error', error: harnessErrorText(property.id, harnessError) }
  if (!details.failed) {
    if (refused.length > 0 && judgedCases === 0) return { status: 'error', error: `every case was refused: ${refused[0]}` }
    return { status: 'passed', numRuns: details.numRuns, ...(refused.length > 0 ? { refused: [...new Set(refused)].slice(0, 20) } : {}) }
  }
  const error = details.errorInstance
  if (error instanceof AdapterError) return { status: 'error', error: error.message }
  if (!last || !original) return { status: 'error', error: harnessErrorText(property.id, error) }
  const { trace: _trace, check, ...first } = original
  return {
    status: 'failed',
    failure: {
      ...last,
      seed: details.seed,
      path: details.counterexamplePath ?? '',
      numRuns: details.numRuns,
      numShrinks: details.numShrinks,
      check,
      original: first,
    },
  }
}

/** A harness error as report text: what threw, and its stack (exit 2). */
function harnessErrorText(clause: string, error: unknown): string {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined
  return `harness error while checking ${clause}: ${describeThrown(error)}${stack ? `\n${stack}` : ''}`
}

function releasedOrder(scheduler: fc.Scheduler): number[] {
  return scheduler
    .report()
    .filter((item) => item.status !== 'pending')
    .map((item) => item.taskId)
}

const problems = new WeakMap<ConformanceAdapter, Promise<string[]>>()
function seamProblems(adapter: ConformanceAdapter): Promise<string[]> {
  if (adapter.seams === undefined) return Promise.resolve([])
  let found = problems.get(adapter)
  if (!found) problems.set(adapter, (found = seamMismatches(adapter).catch(() => [])))
  return found
}
