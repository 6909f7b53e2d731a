// Every mutant registry is rejected on the clauses it targets, and every clause has a mutant
// that its property kills: proof that each property can fail.
import { mkdir, writeFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { CLAUSES } from '../harness/contract/clauses.js'
import { killCheck, loadMutants, type KillResult } from '../harness/mutation/kill.js'
import { PROPERTIES } from '../suites/index.js'

const mutants = await loadMutants()
const matrix = new Map<string, KillResult[]>()
const SEED = 20261130

describe.concurrent('kill matrix', () => {
  it.each(mutants.map((m) => [m.name, m] as const))('%s is rejected on its target clauses', async (_name, mutant) => {
    const results = await killCheck(mutant.adapter, mutant.targets, { runs: 100, seed: SEED })
    matrix.set(mutant.name, results)
    expect(results.map((r) => r.clause).sort()).toEqual([...mutant.targets].sort())
    expect(results.filter((r) => !r.killed).map((r) => `${r.clause}: ${r.detail ?? 'survived'}`)).toEqual([])
  })
})

describe('coverage of the mutant corpus', () => {
  it('every clause a property checks is the target of at least one mutant', () => {
    const targeted = new Set(mutants.flatMap((m) => m.targets))
    const unproven = PROPERTIES.map((p) => p.id).filter((id) => !targeted.has(id))
    expect(unproven).toEqual([])
  })

  it('every mutant targets only clauses of SPEC.md that a property checks', () => {
    const known = new Set(PROPERTIES.map((p) => p.id))
    const stray = mutants.flatMap((m) => m.targets.filter((t) => !known.has(t) || !CLAUSES.some((c) => c.id === t)).map((t) => `${m.name}: ${t}`))
    expect(stray).toEqual([])
  })
})

afterAll(async () => {
  const rows = [...matrix.entries()].sort(([a], [b]) => a.localeCompare(b))
  await mkdir('reports', { recursive: true })
  await writeFile('reports/kill-matrix.json', `${JSON.stringify({ seed: SEED, runs: 100, mutants: Object.fromEntries(rows) }, null, 2)}\n`)
  const table = rows.map(([name, results]) => `${name.padEnd(40)} ${results.map((r) => `${r.clause}${r.killed ? `@${r.numRuns}` : ' SURVIVED'}`).join(' ')}`)
  console.log(`kill matrix (mutant: clause@cases-to-detection)\n${table.join('\n')}`)
})
