/**
 * What supervising each case costs, apart from starting processes: the same properties in
 * process, judged with and without the supervision a certify child puts around every case (the
 * watchdog thread, the escape traps, the look at changed globals), interleaved. Measure it last:
 * the traps it installs stay for the rest of the process.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { judgeClause } from '../engine/judge-clause.js'
import { DEFAULT_RUNS, runsFor } from '../engine/resolve-run.js'
import { applicable } from '../in-vitest/define-suite.js'
import { Supervisor } from '../watchdog/case-supervisor.js'
import { PROPERTIES } from '../../suites/index.js'
import { spread, type Spread } from './stats.js'

export interface SupervisionCost {
  plainMs: Spread
  supervisedMs: Spread
  /** supervised / plain, per repeat. */
  ratio: Spread
}

export async function measureSupervisionCost(adapter: ConformanceAdapter, repeats: number, seed: number): Promise<SupervisionCost> {
  const supervisor = new Supervisor({ dir: await mkdtemp(join(tmpdir(), 'toolreg-bench-')), blockedAfterMs: 10_000 }, () => undefined)
  const properties = PROPERTIES.filter((p) => applicable(p, adapter))
  const timeAll = async (supervised: boolean, runSeed: number) => {
    const start = Date.now()
    for (const property of properties) {
      const runs = runsFor({ runs: DEFAULT_RUNS }, property)
      await judgeClause(property, adapter, { runs, seed: runSeed, ...(supervised ? { supervisor } : {}) })
    }
    return Date.now() - start
  }
  const plain: number[] = []
  const supervised: number[] = []
  try {
    for (let r = 0; r < repeats; r++) {
      plain.push(await timeAll(false, seed + r))
      supervised.push(await timeAll(true, seed + r))
    }
  } finally {
    await supervisor.stop()
  }
  return { plainMs: spread(plain), supervisedMs: spread(supervised), ratio: spread(supervised.map((s, i) => s / plain[i]!)) }
}
