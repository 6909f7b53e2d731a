/**
 * The conformance suites as vitest tests, parameterised by an adapter. `toolreg certify` runs
 * them through vitest's Node API; a registry project can run them in its own vitest setup:
 *
 *   import { defineConformanceSuite } from 'toolreg/vitest'
 *   defineConformanceSuite(myAdapter)
 */
import { describe, test } from 'vitest'
import type { ConformanceAdapter } from '../adapter.js'
import { PROPERTIES, SUITES } from '../../suites/index.js'
import { shardOf, type Shard } from './shard.js'
import { checkProperty } from './check-property.js'
import { DEFAULT_RUNS } from './config.js'
import { toFile, writeCounterexample } from './counterexample.js'
import { formatFailure } from './format-failure.js'
import { addToCorpus, loadCorpus } from './corpus.js'
import type { ConformanceProperty } from './property.js'
import type { PropertyMeta } from './property-meta.js'
import type { Supervisor } from './watchdog-supervisor.js'
import { escapedVerdict } from './watchdog-verdicts.js'
import { missingSeam } from '../seams.js'

export interface SuiteOptions {
  runs?: number
  seed?: number
  clauses?: readonly string[]
  /** Where counterexample files are written; default reports/counterexamples. */
  counterexampleDir?: string
  /** Run only this share of the properties (`--shard i/n`). */
  shard?: Shard
  /** The regression corpus directory: its cases run first, and new counterexamples are added. */
  corpusDir?: string
  /** Watchdog and escape traps around every case (`toolreg certify` sets this). */
  supervisor?: Supervisor
}

export type { PropertyMeta } from './property-meta.js'

declare module 'vitest' {
  interface TaskMeta {
    toolreg?: PropertyMeta
  }
}

export function applicable(property: ConformanceProperty, adapter: ConformanceAdapter, clauses: readonly string[] = []): boolean {
  const profiles = new Set(['core', ...adapter.profiles])
  const seamed = missingSeam(property.id, adapter) === undefined
  return profiles.has(property.profile) && seamed && (clauses.length === 0 || clauses.includes(property.id))
}

export function defineConformanceSuite(adapter: ConformanceAdapter, options: SuiteOptions = {}): void {
  const runs = options.runs ?? DEFAULT_RUNS
  const seed = options.seed ?? Date.now() % 2 ** 31
  const inThisShard = shardOf(PROPERTIES, options.shard)
  for (const [family, properties] of Object.entries(SUITES)) {
    const chosen = properties.filter((p) => applicable(p, adapter, options.clauses) && inThisShard.has(p.id))
    if (chosen.length === 0) continue
    describe(family.toUpperCase(), () => {
      for (const property of chosen) {
        test(property.title, async ({ task }) => {
          const base: PropertyMeta = { clause: property.id, level: property.level, profile: property.profile, status: 'passed' }
          const examples = options.corpusDir ? await loadCorpus(options.corpusDir, property.id) : []
          const supervisor = options.supervisor
          supervisor?.propertyStarted(property)
          const supervise = supervisor ? { supervise: supervisor.runCase.bind(supervisor) } : {}
          const verdict = await checkProperty(property, adapter, { runs: Math.min(runs, property.maxRuns ?? runs), seed, examples, ...supervise })
          const escaped = supervisor?.propertyEnded() ?? []
          if (escaped.length > 0 && verdict.status !== 'failed') {
            task.meta.toolreg = await escapedVerdict(base, escaped, adapter.name, seed, options.counterexampleDir ?? 'reports/counterexamples')
            throw new Error(`${property.title}\n  ${escaped.map((e) => e.detail).join('\n  ')}`)
          }
          if (verdict.status === 'passed') {
            task.meta.toolreg = { ...base, numRuns: verdict.numRuns }
            return
          }
          if (verdict.status === 'error') {
            task.meta.toolreg = { ...base, status: 'error', error: verdict.error }
            throw new Error(`harness or adapter error: ${verdict.error}`)
          }
          const { failure } = verdict
          const found = toFile(property.id, property.title, adapter.name, failure)
          const file = await writeCounterexample(options.counterexampleDir ?? 'reports/counterexamples', found)
          if (options.corpusDir) await addToCorpus(options.corpusDir, found)
          task.meta.toolreg = {
            ...base,
            status: 'failed',
            numRuns: failure.numRuns,
            counterexample: file,
            violations: failure.violations.map(plainViolation),
            originalViolations: failure.original.violations.map(plainViolation),
          }
          throw new Error(formatFailure(property.title, failure, file))
        })
      }
    })
  }
}

const plainViolation = (v: { clause: string; detail: string }) => ({ clause: v.clause, detail: v.detail })
