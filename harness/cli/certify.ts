/** `toolreg certify`: the suites run as vitest tests; the verdicts become the clause matrix. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLAUSE_IDS } from '../clauses.js'
import { buildReport, exitCode, type CertifyReport } from '../report/build-report.js'
import { mergeReports } from '../report/merge.js'
import { inShard, type Shard } from '../runner/shard.js'
import { COVERAGE_DIR, coverageGlobs, coverageOptions, readCoverageSummary } from '../report/coverage.js'
import { finishRemoteCoverage, startRemoteCoverage } from '../report/remote-coverage.js'
import { writeReports, type ReportTargets } from '../report/write-reports.js'
import { applyBaseline, readBaseline } from '../report/baseline.js'
import { formatMatrix } from '../report/format-matrix.js'
import { explainFailures } from './explain-failures.js'
import { CollectingReporter, type CollectedResult } from '../runner/collecting-reporter.js'
import { DEFAULT_RUNS, type CertifyConfig } from '../runner/config.js'
import { applicable } from '../runner/define-suite.js'
import { seamMismatches } from '../seams.js'
import { AdapterLoadError, loadAdapter } from '../runner/load-adapter.js'
import { remoteAdapter, type RemoteAdapter } from '../protocol/remote-adapter.js'
import type { ConformanceAdapter, RegistryUnderTest } from '../adapter.js'
import { PROPERTIES } from '../../suites/index.js'
import type { ConformanceProperty } from '../runner/property.js'
import { DEFAULT_BLOCKED_AFTER_MS, readBlocked, readEscapes, readRunning, type Escape, type WatchdogConfig } from '../runner/watchdog-record.js'
import { applyEscapes, blockedVerdict, diedVerdict } from '../runner/watchdog-verdicts.js'
import { underWatchdog } from '../runner/watchdog-alone.js'
import { UsageError } from './usage.js'
import { TOOLREG_VERSION } from './version.js'
import { describeThrown } from '../runner/safe-read.js'

export interface CertifyOptions extends ReportTargets {
  baseline?: string
  shard?: Shard
  /** The regression corpus directory (default reports/corpus); false turns it off. */
  corpus?: string | false
  /** Campaign mode: repeat with fresh seeds until this many milliseconds have passed. */
  durationMs?: number
  /** Measure which lines of the implementation the suites exercised (globs; [] = the adapter's folder). */
  coverage?: string[]
  adapter?: string
  /** A protocol server's command line, instead of an adapter module. */
  command?: string
  /** Check every protocol message against its schema. */
  validateProtocol?: boolean
  runs?: number
  seed?: number
  clauses: string[]
  strict: boolean
  /** How long the suites' event loop may stay blocked before the watchdog kills the worker. */
  caseTimeoutMs?: number
}

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export async function certify(options: CertifyOptions): Promise<number> {
  const unknown = options.clauses.filter((id) => !CLAUSE_IDS.includes(id))
  if (unknown.length > 0) throw new UsageError(`unknown clause ID(s): ${unknown.join(', ')}. Valid IDs: ${CLAUSE_IDS.join(' ')}`)
  const baseline = options.baseline ? await readBaseline(options.baseline) : undefined
  if (options.adapter && options.command) throw new UsageError('give either --adapter or --command, not both')
  // Loading the adapter and building one registry happen here, in this process: under the watchdog too.
  const caseTimeoutMs = options.caseTimeoutMs ?? DEFAULT_BLOCKED_AFTER_MS
  const adapter = options.command ? remoteAdapter(options.command, options.validateProtocol === true) : await underWatchdog('adapter', 'loading the adapter', () => loadAdapter(options.adapter), caseTimeoutMs)
  let seamErrors: string[] = []
  try {
    await underWatchdog('adapter', 'create() and dispose() once', () => preflight(adapter), caseTimeoutMs)
    seamErrors = await seamMismatches(adapter)
  } finally {
    ;(adapter as Partial<RemoteAdapter>).close?.()
  }
  const config: CertifyConfig = {
    ...(options.adapter ? { adapterPath: resolve(options.adapter) } : {}),
    ...(options.command ? { command: options.command, validateProtocol: options.validateProtocol === true } : {}),
    runs: options.runs ?? DEFAULT_RUNS,
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    clauses: options.clauses,
    counterexampleDir: resolve('reports/counterexamples'),
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.corpus !== false ? { corpusDir: resolve(options.corpus ?? 'reports/corpus') } : {}),
  }
  const rounds: CertifyReport[] = []
  const deadline = Date.now() + (options.durationMs ?? 0)
  do {
    const round = { ...config, seed: config.seed + rounds.length }
    rounds.push(await certifyOnce(adapter, round, options, seamErrors))
    if (options.durationMs) console.error(`campaign: round ${rounds.length} done (seed ${round.seed}), ${Math.max(0, Math.round((deadline - Date.now()) / 1000))}s left`)
  } while (Date.now() < deadline)
  const built = rounds.length === 1 ? rounds[0]! : mergeReports(rounds, { acrossSeeds: true })
  const report = baseline ? applyBaseline(built, baseline) : built
  console.log(formatMatrix(report))
  for (const explained of await explainFailures(report)) console.log(`\n${explained}`)
  await writeReports(report, options)
  return exitCode(report, options.strict)
}

/**
 * One certification run through vitest: the suites as tests, the verdicts as a report. When the
 * worker is killed by the watchdog (a blocked event loop) or dies, the clause it was on gets its
 * verdict from what the watchdog recorded, and the clauses still without one run again.
 */
async function certifyOnce(adapter: ConformanceAdapter, config: CertifyConfig, options: CertifyOptions, seamErrors: readonly string[] = []): Promise<CertifyReport> {
  const started = Date.now()
  const results: CollectedResult[] = []
  const unhandled: string[] = [...seamErrors]
  const escapes: Escape[] = []
  let pending = PROPERTIES.filter((p, i) => applicable(p, adapter, options.clauses) && inShard(options.shard, i))
  const remote = options.coverage && options.command ? await startRemoteCoverage() : undefined
  while (pending.length > 0) {
    const dir = await mkdtemp(join(tmpdir(), 'toolreg-watchdog-'))
    const watchdog: WatchdogConfig = { dir, blockedAfterMs: options.caseTimeoutMs ?? DEFAULT_BLOCKED_AFTER_MS }
    const round = await runSuites({ ...config, clauses: pending.map((p) => p.id) }, watchdog, pending.length, options)
    results.push(...round.results)
    escapes.push(...readEscapes(dir))
    const missing = pending.filter((p) => !round.results.some((r) => r.clause === p.id))
    const explained = missing.length > 0 ? await explainDeath(missing, dir, adapter.name, config) : undefined
    if (explained) results.push(explained)
    unhandled.push(...round.unhandled.filter((message) => !(explained && WORKER_DIED.test(message))))
    if (missing.length > 0 && !explained) unhandled.push(`the worker running the suites stopped before ${missing.map((p) => p.id).join(', ')} had a verdict`)
    await rm(dir, { recursive: true, force: true })
    const next = missing.filter((p) => !results.some((r) => r.clause === p.id))
    if (next.length === pending.length || results.some((r) => r.clause === 'adapter')) break
    pending = next
  }
  if (remote) await finishRemoteCoverage(remote, coverageGlobs(options.coverage ?? [], undefined))
  const coverage = options.coverage ? await readCoverageSummary(COVERAGE_DIR, coverageGlobs(options.coverage, config.adapterPath)) : undefined
  if (options.coverage && options.command && !coverage) unhandled.push('--coverage: the server recorded no coverage (only a server running on Node writes it)')
  const applied = applyEscapes(results, escapes)
  return buildReport({
    adapter,
    seed: config.seed,
    runs: config.runs,
    durationMs: Date.now() - started,
    properties: PROPERTIES,
    results: applied.results,
    selected: options.clauses,
    unhandled: [...unhandled, ...applied.errors],
    version: TOOLREG_VERSION,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(coverage ? { coverage } : {}),
  })
}

/**
 * vitest's report of a forked worker that went away. (vitest 4.1: startVitest still returns; the
 * reporter sees every test of the module pending, finished ones whose results were not flushed
 * yet included, and this one unhandled error. Its testTimeout is a timer inside the worker, so it
 * cannot end a test that blocks the worker's event loop: that is the watchdog's job.)
 */
const WORKER_DIED = /^\[vitest-pool\]/

/** One vitest run of the suites on the given clauses, supervised by the watchdog. */
async function runSuites(config: CertifyConfig, watchdog: WatchdogConfig, total: number, options: CertifyOptions) {
  const reporter = new CollectingReporter(total, process.stderr.isTTY === true)
  const { startVitest } = await import('vitest/node')
  const vitest = await startVitest('test', [], {
    root: PACKAGE_ROOT,
    config: false,
    include: ['harness/runner/certify-entry.ts'],
    watch: false,
    reporters: [reporter],
    provide: { toolreg: config, toolregWatchdog: watchdog },
    testTimeout: 10 * 60_000,
    passWithNoTests: true,
    ...(options.coverage && !options.command ? { coverage: coverageOptions(options.coverage, config.adapterPath) } : {}),
  })
  await vitest.close()
  return { results: reporter.results, unhandled: reporter.unhandled }
}

/** The verdict of the clause the worker was on when it was killed (a blocked event loop) or died. */
async function explainDeath(missing: readonly ConformanceProperty[], dir: string, adapter: string, config: CertifyConfig): Promise<CollectedResult | undefined> {
  const blocked = readBlocked(dir)
  const clause = blocked?.clause ?? readRunning(dir)?.clause
  const property = missing.find((p) => p.id === clause)
  if (!property) return undefined
  if (blocked?.clause) {
    const record = { ...blocked, clause: blocked.clause }
    return blockedVerdict(record, property, adapter, config.seed, config.counterexampleDir, config.corpusDir)
  }
  return diedVerdict(property)
}

/** One clear line for an adapter that cannot even build a registry, instead of a failure per clause. */
async function preflight(adapter: ConformanceAdapter): Promise<void> {
  let registry: RegistryUnderTest
  try {
    registry = await adapter.create({})
  } catch (error) {
    throw new AdapterLoadError(`adapter ${adapter.name}: create() threw: ${describeThrown(error)}`)
  }
  try {
    await registry.dispose?.()
  } catch (error) {
    throw new AdapterLoadError(`adapter ${adapter.name}: dispose() threw: ${describeThrown(error)}`)
  }
}
