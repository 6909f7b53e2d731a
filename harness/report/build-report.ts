/**
 * The certification report as data: every clause of SPEC.md with a status — passed, failed,
 * untested (with the reason) or not-applicable to the declared profiles. Formats come later.
 */
import { relative } from 'node:path'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { CLAUSES, type Clause } from '../contract/clauses.js'
import { formatShard, shardOf, type Shard } from '../engine/shard.js'
import type { ChildEnd, Verdict } from '../engine/verdict.js'
import type { EscapeKind } from '../watchdog/record.js'
import type { CoverageSummary } from './coverage.js'
import { missingSeam, notApplicableReason } from '../seams.js'

/** The reason of a clause that another shard judges (merging replaces it with that verdict). */

/** Claims are a tool's, not the registry's: CLM-1..4 of an in-process tool, CLM-5..8 of an MCP server's annotations. */
const MCP_CLAIMS = new Set(['CLM-5', 'CLM-6', 'CLM-7', 'CLM-8'])
const claimReason = (id: string) =>
  `a claim a tool makes: checked by \`toolreg ${MCP_CLAIMS.has(id) ? 'check-mcp' : 'check-tool'}\`, not by registry certification`
export const OTHER_SHARD = 'in another shard'

export type ClauseStatus = 'passed' | 'failed' | 'untested' | 'not-applicable'

export interface ClauseVerdict {
  id: string
  level: Clause['level']
  profile: string
  status: ClauseStatus
  reason?: string
  /** For a failure: the violations of the case first found, before it was shrunk. */
  originalReason?: string
  counterexample?: string
  /** Cases the property ran (when it passed) or ran before its first failure. */
  numRuns?: number
  /** Set by a known-failures baseline: an expected failure, or an entry that now passes. */
  baseline?: 'expected-failure' | 'stale'
  baselineReason?: string
  /** The stage the interpreter entered last, when the clause ended in a blocked loop, an exit or an escape. */
  stage?: string
  /** How the child process running the implementation ended while it held this clause. */
  ended?: ChildEnd
  /** What escaped the implementation's calls and failed the clause: an uncaught exception, changed globals… */
  escape?: EscapeKind
}

export interface CertifyReport {
  schemaVersion: 1
  toolreg: string
  adapter: { name: string; version?: string; profiles: string[]; seams?: string[] }
  seed: number
  runs: number
  durationMs: number
  node: string
  clauses: ClauseVerdict[]
  summary: { passed: number; failed: number; untested: number; notApplicable: number }
  /** Errors of the harness or the adapter itself: any makes the run exit 2. */
  errors: string[]
  /** Set on a shard's report: `i/n`. */
  shard?: string
  /** With --coverage: how much of the implementation the suites exercised (percentages). */
  coverage?: CoverageSummary
}

export interface ReportInput {
  adapter: Pick<ConformanceAdapter, 'name' | 'version' | 'profiles' | 'seams'>
  seed: number
  runs: number
  durationMs: number
  /** Every property there is, in suite order (shards are cut from it). */
  properties: readonly { id: string }[]
  results: readonly Verdict[]
  selected: readonly string[]
  unhandled: readonly string[]
  version: string
  shard?: Shard
  coverage?: CoverageSummary
}

export function buildReport(input: ReportInput): CertifyReport {
  const profiles = new Set(['core', ...input.adapter.profiles])
  const errors = [...input.unhandled]
  const clauses = CLAUSES.map((clause): ClauseVerdict => {
    const base = { id: clause.id, level: clause.level, profile: clause.profile }
    if (clause.level === 'claim') return { ...base, status: 'untested', reason: claimReason(clause.id) }
    if (!profiles.has(clause.profile)) return { ...base, status: 'not-applicable', reason: `the adapter does not declare the "${clause.profile}" profile` }
    const seam = missingSeam(clause.id, input.adapter)
    if (seam) return { ...base, status: 'not-applicable', reason: notApplicableReason(seam) }
    if (!input.properties.some((p) => p.id === clause.id)) return { ...base, status: 'untested', reason: 'no property covers this clause yet' }
    if (input.selected.length > 0 && !input.selected.includes(clause.id)) return { ...base, status: 'untested', reason: 'not selected (--clause)' }
    if (input.shard && !shardOf(input.properties, input.shard).has(clause.id)) {
      return { ...base, status: 'untested', reason: `${OTHER_SHARD} (this is shard ${formatShard(input.shard)})` }
    }
    const results = input.results.filter((r) => r.clause === clause.id)
    if (results.length === 0) return { ...base, status: 'untested', reason: 'its property did not run' }
    const failed = results.find((r) => r.status === 'failed')
    if (failed) return failedRow(base, failed)
    const broken = results.find((r) => r.status === 'error')
    if (broken) {
      errors.push(`${clause.id}: ${broken.error ?? 'error'}`)
      const stage = broken.stage ? { stage: broken.stage } : {}
      return { ...base, status: 'untested', reason: `the harness or adapter failed: ${broken.error ?? 'error'}`, ...stage }
    }
    const untested = results.find((r) => r.status === 'untested')
    if (untested) return { ...base, status: 'untested', reason: untested.untested ?? 'no verdict' }
    const passed = results[0]
    return { ...base, status: 'passed', ...(passed?.numRuns !== undefined ? { numRuns: passed.numRuns } : {}) }
  })
  const count = (status: ClauseStatus) => clauses.filter((c) => c.status === status).length
  return {
    schemaVersion: 1,
    toolreg: input.version,
    adapter: {
      name: input.adapter.name,
      ...(input.adapter.version ? { version: input.adapter.version } : {}),
      profiles: [...input.adapter.profiles],
      ...(input.adapter.seams ? { seams: [...input.adapter.seams] } : {}),
    },
    seed: input.seed,
    runs: input.runs,
    durationMs: input.durationMs,
    node: process.version,
    clauses,
    summary: { passed: count('passed'), failed: count('failed'), untested: count('untested'), notApplicable: count('not-applicable') },
    errors,
    ...(input.shard ? { shard: formatShard(input.shard) } : {}),
    ...(input.coverage ? { coverage: input.coverage } : {}),
  }
}

/**
 * The report of a run that stopped before any clause (the adapter did not load, or its preflight
 * failed): every clause untested, naming why, and the error that makes the run exit 2.
 */
export function stoppedReport(input: Pick<ReportInput, 'seed' | 'runs' | 'durationMs' | 'version'> & { adapter: string; error: string }): CertifyReport {
  const reason = 'not run: the run stopped before any clause (see errors)'
  const clauses = CLAUSES.map((c): ClauseVerdict => ({ id: c.id, level: c.level, profile: c.profile, status: 'untested', reason }))
  return {
    schemaVersion: 1,
    toolreg: input.version,
    adapter: { name: input.adapter, profiles: [] },
    seed: input.seed,
    runs: input.runs,
    durationMs: input.durationMs,
    node: process.version,
    clauses,
    summary: { passed: 0, failed: 0, untested: clauses.length, notApplicable: 0 },
    errors: [input.error],
  }
}

function failedRow(base: Pick<ClauseVerdict, 'id' | 'level' | 'profile'>, failed: Verdict): ClauseVerdict {
  const originalReason = failed.originalViolations?.map((v) => v.detail).join('; ')
  const file = failed.counterexampleFile
  return {
    ...base,
    status: 'failed',
    reason: failed.violations?.map((v) => v.detail).join('; ') ?? 'failed',
    ...(originalReason ? { originalReason } : {}),
    ...(file ? { counterexample: relative(process.cwd(), file) || file } : {}),
    ...(failed.numRuns !== undefined ? { numRuns: failed.numRuns } : {}),
    ...(failed.stage ? { stage: failed.stage } : {}),
    ...(failed.ended ? { ended: failed.ended } : {}),
    ...(failed.escape ? { escape: failed.escape } : {}),
  }
}

/** 0 when every applicable R clause passes (S too when strict), 1 when one fails, 2 on errors. */
export function exitCode(report: CertifyReport, strict: boolean): 0 | 1 | 2 {
  if (report.errors.length > 0) return 2
  const binding = (c: ClauseVerdict) => c.level === 'R' || (strict && c.level === 'S')
  const failing = report.clauses.filter((c) => c.status === 'failed' && binding(c) && c.baseline !== 'expected-failure')
  const stale = report.clauses.filter((c) => c.baseline === 'stale')
  return failing.length > 0 || stale.length > 0 ? 1 : 0
}
