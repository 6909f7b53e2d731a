/**
 * `toolreg certify`: this process is the supervisor. It resolves the run once, never loads the
 * implementation, and hands the clauses to child processes that do (supervisor/child-pool.ts); from
 * their verdicts, and from how they ended, it builds the clause matrix and every report.
 */
import { existsSync } from 'node:fs'
import { buildReport, exitCode, stoppedReport, type CertifyReport } from '../report/build-report.js'
import { mergeReports } from '../report/merge.js'
import { COVERAGE_DIR, coverageGlobs, readCoverageSummary } from '../report/coverage.js'
import { finishRemoteCoverage, startRemoteCoverage } from '../report/remote-coverage.js'
import { writeReports, type ReportTargets } from '../report/write-reports.js'
import { rewrittenReports } from '../report/report-seal.js'
import { applyBaseline, readBaseline } from '../report/baseline.js'
import { formatMatrix } from '../report/format-matrix.js'
import { gateLine } from '../report/gate.js'
import { explainFailures } from './explain-failures.js'
import { ProgressLine } from './progress-line.js'
import { ChildPool, type Preflight } from '../supervisor/child-pool.js'
import type { CounterexampleFile } from '../store/counterexample.js'
import { loadCorpus } from '../store/corpus.js'
import { applyEscapes, BUDGET_REASON } from '../engine/death-verdicts.js'
import { AdapterLoadError } from '../safe/load-adapter.js'
import { persistVerdict } from '../engine/persist-verdict.js'
import { InvalidRunOptions, resolveRun, selectProperties, type ResolvedRun, type RunOptions } from '../engine/resolve-run.js'
import type { Shard } from '../engine/shard.js'
import type { PropertyInfo, Verdict } from '../engine/verdict.js'
import { UsageError } from './usage.js'
import { TOOLREG_VERSION } from './version.js'

export interface CertifyOptions extends ReportTargets, RunOptions {
  clauses: string[]
  strict: boolean
  shard?: Shard
}

export async function certify(options: CertifyOptions): Promise<number> {
  let run: ResolvedRun
  try {
    run = resolveRun(options)
  } catch (error) {
    throw error instanceof InvalidRunOptions ? new UsageError(error.message) : error
  }
  // The one check of the adapter this process makes: it never imports it.
  if (options.adapter && !existsSync(options.adapter)) throw new AdapterLoadError(`adapter module not found: ${options.adapter}`)
  const baseline = run.baseline ? await readBaseline(run.baseline) : undefined
  const coverage = run.coverage ? await startRemoteCoverage() : undefined
  const pool = new ChildPool(run, Math.min(run.workers, run.clauses.length || run.workers))
  const counterexamples = new Map<string, CounterexampleFile>()
  const rounds: CertifyReport[] = []
  let preflight: Preflight
  const started = Date.now()
  const stopOnSignals = stopOnSignal(pool)
  try {
    preflight = await pool.preflight().catch(async (error: unknown) => {
      if (error instanceof AdapterLoadError) await writeStoppedReport(run, options, error.message, Date.now() - started)
      throw error
    })
    const selected = selectProperties(run, preflight.properties, preflight.adapter)
    await pool.trim(selected.length)
    pool.startBudget()
    const until = Date.now() + run.durationMs
    do {
      const seed = run.seed + rounds.length
      const verdicts = await certifyRound(pool, run, seed, selected)
      for (const v of verdicts) if (v.counterexample && !counterexamples.has(v.clause)) counterexamples.set(v.clause, v.counterexample)
      rounds.push(reportOf(run, preflight, seed, verdicts.started, verdicts))
      if (run.durationMs) console.error(`campaign: round ${rounds.length} done (seed ${seed}), ${Math.max(0, Math.round((until - Date.now()) / 1000))}s left`)
    } while (Date.now() < until && pool.budgetLeft)
  } finally {
    stopOnSignals()
    await pool.close()
  }
  const built = rounds.length === 1 ? rounds[0]! : mergeReports(rounds, { acrossSeeds: true })
  const measured = coverage ? await coverageOf(run, coverage) : undefined
  const covered = measured && ('summary' in measured ? { coverage: measured.summary } : { errors: [...built.errors, measured.error] })
  const withCoverage = covered ? { ...built, ...covered } : built
  const report = baseline ? applyBaseline(withCoverage, baseline) : withCoverage
  console.log(formatMatrix(report))
  const scenarioClauses = new Set(preflight.properties.filter((p) => p.scenario).map((p) => p.id))
  for (const explained of explainFailures(report, counterexamples, scenarioClauses)) console.log(`\n${explained}`)
  const written = await writeReports(report, options, counterexamples)
  console.log(`\n${gateLine(report, run.strict)}`)
  // The last thing before the exit code: a report changed since it was written says something else than the exit code.
  const rewritten = rewrittenReports(written)
  if (rewritten.length === 0) return exitCode(report, run.strict)
  console.error(`toolreg: harness error: ${rewritten.join(', ')} changed after this run wrote it (another process wrote there): not to be trusted`)
  return 2
}

const STOPPING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP']

/**
 * A signal that would end the run (a user's Ctrl-C, or an implementation that killed its parent
 * through a shell, past the child's traps: Node cannot tell who sent it) ends it as a harness
 * error naming the clauses the children held and their stages, exit 2, after every child's
 * process tree is killed and the run folder removed. Returns what removes the handlers.
 */
function stopOnSignal(pool: ChildPool): () => void {
  const stop = (signal: NodeJS.Signals) => {
    const held = pool.inFlight()
    pool.abandon()
    console.error(`toolreg: harness error: stopped by ${signal} while checking ${held.length > 0 ? held.join(', ') : 'no clause'}; no report written`)
    process.exit(2)
  }
  for (const signal of STOPPING_SIGNALS) process.on(signal, stop)
  return () => {
    for (const signal of STOPPING_SIGNALS) process.off(signal, stop)
  }
}

/** A run that stops before any clause still leaves a complete report: every clause untested, the error named. */
async function writeStoppedReport(run: ResolvedRun, targets: ReportTargets, error: string, durationMs: number): Promise<void> {
  const adapter = run.target.adapterPath ?? run.target.command ?? 'adapter'
  await writeReports(stoppedReport({ adapter, error, seed: run.seed, runs: run.runs, durationMs, version: TOOLREG_VERSION }), targets, new Map())
}

type RoundVerdicts = Verdict[] & { started: number; errors: string[] }

/** One round: every selected clause judged by the children, escapes applied, files written. */
async function certifyRound(pool: ChildPool, run: ResolvedRun, seed: number, selected: readonly PropertyInfo[]): Promise<RoundVerdicts> {
  const started = Date.now()
  const progress = new ProgressLine(selected.length)
  const examples = (clause: string) => (run.corpusDir ? loadCorpus(run.corpusDir, clause) : Promise.resolve([]))
  const judged = await pool.round({ seed, properties: selected, examples, onVerdict: progress.judged })
  progress.clear()
  const applied = applyEscapes(judged, pool.takeEscapes())
  const persisted = await Promise.all(applied.verdicts.map((v) => persistVerdict(v, run)))
  return Object.assign(persisted, { started, errors: [...applied.errors, ...runErrors(persisted, run.strict)] })
}

/**
 * What makes a run fail whatever the clause levels: a child that ended while holding a clause
 * the exit code would not count (an S clause without --strict) when no binding clause failed,
 * and clauses the budget left untested.
 */
function runErrors(verdicts: readonly Verdict[], strict: boolean): string[] {
  const errors: string[] = []
  const binding = (v: Verdict) => v.level === 'R' || (strict && v.level === 'S')
  if (!verdicts.some((v) => v.status === 'failed' && binding(v))) {
    const ended = verdicts.filter((v) => v.ended && v.status === 'failed')
    for (const v of ended) errors.push(`${v.clause}: the child process running the implementation ended while checking it`)
  }
  const unjudged = verdicts.filter((v) => v.untested === BUDGET_REASON).length
  if (unjudged > 0) errors.push(`--time-budget ran out: ${unjudged} clause(s) untested (budget)`)
  return errors
}

function reportOf(run: ResolvedRun, preflight: Preflight, seed: number, started: number, verdicts: RoundVerdicts): CertifyReport {
  return buildReport({
    adapter: preflight.adapter,
    seed,
    runs: run.runs,
    durationMs: Date.now() - started,
    properties: preflight.properties,
    results: verdicts,
    selected: run.clauses,
    unhandled: [...preflight.seamErrors, ...verdicts.errors],
    version: TOOLREG_VERSION,
    ...(run.shard ? { shard: run.shard } : {}),
  })
}

/** The children (and the servers they start) wrote V8 coverage on exit; c8 turns it into reports/coverage/. */
async function coverageOf(run: ResolvedRun, raw: Awaited<ReturnType<typeof startRemoteCoverage>>) {
  const include = coverageGlobs(run.coverage ?? [], run.target.adapterPath)
  await finishRemoteCoverage(raw, include)
  const summary = await readCoverageSummary(COVERAGE_DIR, include)
  if (summary) return { summary }
  const who = run.target.command ? 'the server recorded no coverage (only a server running on Node writes it)' : 'the children recorded no coverage'
  return { error: `--coverage: ${who}` }
}
