/**
 * Checking one property against one adapter with fast-check: generation, scheduler-ordered
 * interleavings, shrinking. A failure comes back as data (seed, path, the shrunk case, its
 * schedule, violations and trace), to be formatted and saved elsewhere.
 */
import fc from 'fast-check'
import type { ConformanceAdapter } from '../adapter.js'
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'
import { violationsOf, type CaseOutcome, type ConformanceProperty } from './property.js'
import { replayScheduler } from './replay-scheduler.js'

export interface CheckOptions {
  runs: number
  seed: number
  /** Replay one failing path of a previous run (fast-check's `path`). */
  path?: string
  /** Shrink a failure to a minimal case (default); off when only detection matters (kill checks). */
  shrink?: boolean
  /** Cases to run first, before generation (the regression corpus), each with its schedule. */
  examples?: readonly { testCase: unknown; schedule: number[] }[]
  /** Runs each case under supervision (the watchdog and escape traps of `toolreg certify`). */
  supervise?: (testCase: unknown, run: () => Promise<CaseOutcome>) => Promise<CaseOutcome>
}

export interface Failure {
  seed: number
  path: string
  /** How many generated cases ran before the first failure (runs-to-detection). */
  numRuns: number
  numShrinks: number
  testCase: unknown
  /** Task ids in the order the scheduler released them: replays the interleaving exactly. */
  schedule: number[]
  violations: Violation[]
  trace: Trace | undefined
}

export type PropertyVerdict =
  /** `refused`: cases skipped because the implementation refused a registration (harness errors). */
  | { status: 'passed'; numRuns: number; refused?: string[] }
  | { status: 'failed'; failure: Failure }
  | { status: 'error'; error: string }

class AdapterError extends Error {}

export async function checkProperty(property: ConformanceProperty, adapter: ConformanceAdapter, options: CheckOptions): Promise<PropertyVerdict> {
  let last: Omit<Failure, 'seed' | 'path' | 'numRuns' | 'numShrinks'> | undefined
  const refused: string[] = []
  let judgedCases = 0
  const predicate = async (testCase: unknown, scheduler: fc.Scheduler) => {
    const run = () => property.run(adapter, testCase, scheduler)
    const outcome = await (options.supervise ? options.supervise(testCase, run) : run())
    if (outcome.adapterError) throw new AdapterError(outcome.adapterError)
    // A refused registration costs only its own case (SPEC.md "Output schemas").
    if (outcome.refused) return void refused.push(outcome.refused)
    judgedCases++
    const violations = violationsOf(property, outcome)
    if (violations.length === 0) return true
    last = { testCase, schedule: releasedOrder(scheduler), violations, trace: outcome.trace }
    return false
  }
  const details = await fc.check(fc.asyncProperty(property.arbitrary, fc.scheduler(), predicate), {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    ...(options.examples?.length ? { examples: options.examples.map((c) => [c.testCase, replayScheduler(c.schedule)] as [unknown, fc.Scheduler]) } : {}),
    endOnFailure: options.shrink === false,
  })
  if (!details.failed) {
    if (refused.length > 0 && judgedCases === 0) return { status: 'error', error: `every case was refused: ${refused[0]}` }
    return { status: 'passed', numRuns: details.numRuns, ...(refused.length > 0 ? { refused: [...new Set(refused)].slice(0, 20) } : {}) }
  }
  const error = details.errorInstance
  if (error instanceof AdapterError) return { status: 'error', error: error.message }
  if (!last) return { status: 'error', error: `the property threw: ${error instanceof Error ? error.message : String(error)}` }
  return {
    status: 'failed',
    failure: { ...last, seed: details.seed, path: details.counterexamplePath ?? '', numRuns: details.numRuns, numShrinks: details.numShrinks },
  }
}

function releasedOrder(scheduler: fc.Scheduler): number[] {
  return scheduler
    .report()
    .filter((item) => item.status !== 'pending')
    .map((item) => item.taskId)
}
