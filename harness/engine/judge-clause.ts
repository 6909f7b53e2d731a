/**
 * One property checked against one adapter, as one verdict value: the check (check-property.ts),
 * escapes the supervision caught after the cases (a late timer, changed globals), and a failure's
 * counterexample inline. Both the certify child and `defineConformanceSuite` judge through here.
 */
import type { ConformanceAdapter } from '../contract/adapter.js'
import type { Violation } from '../oracle/judge.js'
import { checkProperty } from './check-property.js'
import { toFile } from '../store/counterexample.js'
import type { CorpusCase } from '../store/corpus.js'
import { storyOf, type ConformanceProperty } from '../property/property.js'
import { SCENARIO_PROPERTIES } from '../property/scenario-property.js'
import { plainViolation, type PropertyInfo, type Verdict } from './verdict.js'
import type { Supervisor } from '../watchdog/case-supervisor.js'
import type { Escape, RunningCase } from '../watchdog/record.js'

export interface JudgeOptions {
  runs: number
  seed: number
  examples?: readonly CorpusCase[]
  /** The watchdog and escape traps around every case (the certify child sets this). */
  supervisor?: Supervisor
}

export const propertyInfo = (p: ConformanceProperty): PropertyInfo => ({
  id: p.id,
  level: p.level,
  profile: p.profile,
  title: p.title,
  scenario: SCENARIO_PROPERTIES.has(p),
  ...(p.maxRuns !== undefined ? { maxRuns: p.maxRuns } : {}),
})

export async function judgeClause(property: ConformanceProperty, adapter: ConformanceAdapter, options: JudgeOptions): Promise<Verdict> {
  const base = { clause: property.id, level: property.level, profile: property.profile, title: property.title }
  const { supervisor } = options
  supervisor?.propertyStarted(property)
  const supervise = supervisor ? { supervise: supervisor.runCase.bind(supervisor) } : {}
  const checked = await checkProperty(property, adapter, { runs: options.runs, seed: options.seed, examples: options.examples ?? [], ...supervise })
  const escaped = supervisor?.propertyEnded() ?? []
  if (escaped.length > 0 && checked.status !== 'failed') return escapedVerdict(property, escaped, adapter.name, options.seed)
  if (checked.status === 'passed') return { ...base, status: 'passed', numRuns: checked.numRuns }
  if (checked.status === 'error') return { ...base, status: 'error', error: checked.error }
  const { failure } = checked
  const cause = escapeBehind([...failure.violations, ...failure.original.violations], supervisor?.escapesOf(property.id) ?? [])
  return {
    ...base,
    status: 'failed',
    numRuns: failure.numRuns,
    violations: failure.violations.map(plainViolation),
    originalViolations: failure.original.violations.map(plainViolation),
    counterexample: toFile(property.id, property.title, adapter.name, failure, storyOf(property, failure.testCase)),
    ...escapeFields(cause),
  }
}

/** The escape a case's violation was made from (the supervisor turns escapes into violations verbatim). */
function escapeBehind(violations: readonly Violation[], escapes: readonly Escape[]): Escape | undefined {
  const details = new Set(violations.map((v) => v.detail))
  return escapes.find((e) => details.has(e.detail))
}

export const escapeFields = (escape: Escape | undefined): Pick<Verdict, 'escape' | 'stage' | 'ended'> =>
  escape ? { escape: escape.kind, ...(escape.stage ? { stage: escape.stage } : {}), ...(escape.ended ? { ended: escape.ended } : {}) } : {}

/**
 * A replayable file for the case something happened in, when the case was kept; told as a story
 * when the property that ran it is at hand (`teller`: not in the supervisor, which loads no suite).
 */
export function counterexampleOf(
  at: RunningCase,
  adapter: string,
  seed: number,
  violations: Violation[],
  teller?: ConformanceProperty,
): Verdict['counterexample'] {
  if (at.case === undefined) return undefined
  const testCase = JSON.parse(at.case) as unknown
  const path = at.path ?? ''
  const story = teller && teller.id === at.clause ? storyOf(teller, testCase) : undefined
  return {
    toolreg: 'counterexample', version: 1, clause: at.clause, property: at.title, adapter, seed, path, case: testCase,
    ...(story ? { story } : {}), schedule: [], violations,
  }
}

/** A property whose cases passed, failed after all by escapes (a late timer, changed globals). */
function escapedVerdict(property: ConformanceProperty, escapes: readonly Escape[], adapter: string, seed: number): Verdict {
  const base = { clause: property.id, level: property.level, profile: property.profile, title: property.title }
  const violations = [...new Set(escapes.map((e) => e.detail))].map((detail): Violation => ({ clause: base.clause, detail }))
  const found = escapes.map((e) => (e.at ? counterexampleOf(e.at, adapter, seed, violations, property) : undefined)).find((file) => file !== undefined)
  return { ...base, status: 'failed', violations, ...(found ? { counterexample: found } : {}), ...escapeFields(escapes[0]) }
}
