/** `toolreg certify`: the suites run as vitest tests; the verdicts become the clause matrix. */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLAUSE_IDS } from '../clauses.js'
import { buildReport, exitCode } from '../report/build-report.js'
import { writeReports, type ReportTargets } from '../report/write-reports.js'
import { formatMatrix } from '../report/format-matrix.js'
import { CollectingReporter } from '../runner/collecting-reporter.js'
import { DEFAULT_RUNS, type CertifyConfig } from '../runner/config.js'
import { applicable } from '../runner/define-suite.js'
import { AdapterLoadError, loadAdapter } from '../runner/load-adapter.js'
import type { ConformanceAdapter, RegistryUnderTest } from '../adapter.js'
import { PROPERTIES } from '../../suites/index.js'
import { UsageError } from './usage.js'
import { TOOLREG_VERSION } from './version.js'

export interface CertifyOptions extends ReportTargets {
  adapter?: string
  runs?: number
  seed?: number
  clauses: string[]
  strict: boolean
}

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export async function certify(options: CertifyOptions): Promise<number> {
  const unknown = options.clauses.filter((id) => !CLAUSE_IDS.includes(id))
  if (unknown.length > 0) throw new UsageError(`unknown clause ID(s): ${unknown.join(', ')}. Valid IDs: ${CLAUSE_IDS.join(' ')}`)
  const adapter = await loadAdapter(options.adapter)
  await preflight(adapter)
  const config: CertifyConfig = {
    ...(options.adapter ? { adapterPath: resolve(options.adapter) } : {}),
    runs: options.runs ?? DEFAULT_RUNS,
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    clauses: options.clauses,
    counterexampleDir: resolve('reports/counterexamples'),
  }
  const total = PROPERTIES.filter((p) => applicable(p, adapter, options.clauses)).length
  const reporter = new CollectingReporter(total, process.stderr.isTTY === true)
  const started = Date.now()
  const { startVitest } = await import('vitest/node')
  const vitest = await startVitest('test', [], {
    root: PACKAGE_ROOT,
    config: false,
    include: ['harness/runner/certify-entry.ts'],
    watch: false,
    reporters: [reporter],
    provide: { toolreg: config },
    testTimeout: 10 * 60_000,
    passWithNoTests: true,
  })
  await vitest.close()
  const report = buildReport({
    adapter,
    seed: config.seed,
    runs: config.runs,
    durationMs: Date.now() - started,
    properties: PROPERTIES,
    results: reporter.results,
    selected: options.clauses,
    unhandled: reporter.unhandled,
    version: TOOLREG_VERSION,
  })
  console.log(formatMatrix(report))
  await writeReports(report, options)
  return exitCode(report, options.strict)
}

/** One clear line for an adapter that cannot even build a registry, instead of a failure per clause. */
async function preflight(adapter: ConformanceAdapter): Promise<void> {
  let registry: RegistryUnderTest
  try {
    registry = await adapter.create({})
  } catch (error) {
    throw new AdapterLoadError(`adapter ${adapter.name}: create() threw: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    await registry.dispose?.()
  } catch (error) {
    throw new AdapterLoadError(`adapter ${adapter.name}: dispose() threw: ${error instanceof Error ? error.message : String(error)}`)
  }
}
