/**
 * Certification wall time of an adapter at default depth, per suite and in all, and the harness
 * overhead: time per generated case divided by the time spent inside the adapter's execute.
 */
import type { ConformanceAdapter, RegistryUnderTest } from '../contract/adapter.js'
import { checkProperty } from '../engine/check-property.js'
import { DEFAULT_RUNS, runsFor } from '../engine/resolve-run.js'
import { applicable } from '../in-vitest/define-suite.js'
import { SUITES } from '../../suites/index.js'
import { spread, type Spread } from './stats.js'

export interface CertifyTime {
  totalMs: Spread
  perSuiteMs: Record<string, Spread>
  /** (case wall time) / (time inside execute), over judged cases. */
  harnessOverhead: Spread
}

/** Wraps an adapter so the time spent inside its execute calls is summed. */
function timed(adapter: ConformanceAdapter, clock: { insideNs: number }): ConformanceAdapter {
  return {
    ...adapter,
    async create(config) {
      const registry = await adapter.create(config)
      const execute = registry.execute.bind(registry)
      const wrapped: RegistryUnderTest = Object.create(registry)
      wrapped.execute = async (input) => {
        const start = process.hrtime.bigint()
        try {
          return await execute(input)
        } finally {
          clock.insideNs += Number(process.hrtime.bigint() - start)
        }
      }
      return Object.assign(Object.create(null), registry, { execute: wrapped.execute })
    },
  }
}

export async function measureCertifyTime(adapter: ConformanceAdapter, repeats: number, seed: number): Promise<CertifyTime> {
  const totals: number[] = []
  const perSuite: Record<string, number[]> = {}
  const overhead: number[] = []
  for (let r = 0; r < repeats; r++) {
    const clock = { insideNs: 0 }
    const measured = timed(adapter, clock)
    const runStart = Date.now()
    for (const [family, properties] of Object.entries(SUITES)) {
      const suiteStart = Date.now()
      for (const property of properties.filter((p) => applicable(p, adapter))) {
        clock.insideNs = 0
        const caseStart = process.hrtime.bigint()
        const runs = runsFor({ runs: DEFAULT_RUNS }, property)
        await checkProperty(property, measured, { runs, seed: seed + r })
        const wall = Number(process.hrtime.bigint() - caseStart)
        if (clock.insideNs > 0 && !property.maxRuns) overhead.push(wall / clock.insideNs)
      }
      ;(perSuite[family] ??= []).push(Date.now() - suiteStart)
    }
    totals.push(Date.now() - runStart)
  }
  return {
    totalMs: spread(totals),
    perSuiteMs: Object.fromEntries(Object.entries(perSuite).map(([k, v]) => [k, spread(v)])),
    harnessOverhead: spread(overhead),
  }
}
