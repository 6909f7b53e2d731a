/**
 * The attribution matrix: every mutant of the corpus certified on every clause that applies to
 * it, so each single-fault mutant shows which clauses it fails beyond its `targets`. A clause
 * beyond the targets is either a declared consequence (the mutant exports `consequences` and its
 * header says why) or an echo: a verdict the harness owes to an earlier failure (issue 11, item 2).
 */
import type { MutantModule } from './kill.js'
import { killCheck, type KillResult } from './kill.js'
import { applicable } from '../in-vitest/define-suite.js'
import { PROPERTIES } from '../../suites/index.js'

export interface AttributionRow {
  mutant: string
  targets: string[]
  /** Clauses the header explains as real consequences of the fault. */
  consequences: string[]
  /** Every clause the mutant fails, in catalogue order. */
  failed: string[]
  /** Failed clauses that are neither targets nor declared consequences. */
  unexplained: string[]
  /** Targets it does not fail at these runs (the kill matrix is the judge of those). */
  survivedTargets: string[]
  /** Properties that ended in a harness error, with the error. */
  errors: Record<string, string>
  /** First violation of each failed clause, cases-to-detection included. */
  details: Record<string, { numRuns?: number; detail?: string }>
  ms: number
}

export interface AttributionMatrix {
  seed: number
  runs: number
  rows: AttributionRow[]
  /** Mutants whose failed clauses are exactly within their targets. */
  onlyTargets: number
  /** Mutants whose failed clauses are within targets plus declared consequences. */
  onlyTargetsOrConsequences: number
}

export async function attributeMutant(mutant: MutantModule, options: { runs: number; seed: number }): Promise<AttributionRow> {
  const started = Date.now()
  const clauses = PROPERTIES.filter((p) => applicable(p, mutant.adapter)).map((p) => p.id)
  const results: KillResult[] = await killCheck(mutant.adapter, clauses, options)
  const failed = results.filter((r) => r.killed).map((r) => r.clause)
  const consequences = mutant.consequences ?? []
  const explained = new Set([...mutant.targets, ...consequences])
  const errors: Record<string, string> = {}
  for (const r of results) if (!r.killed && r.detail !== undefined) errors[r.clause] = r.detail
  return {
    mutant: mutant.name,
    targets: mutant.targets,
    consequences,
    failed,
    unexplained: failed.filter((c) => !explained.has(c)),
    survivedTargets: mutant.targets.filter((t) => !failed.includes(t)),
    errors,
    details: Object.fromEntries(results.filter((r) => r.killed).map((r) => [r.clause, { numRuns: r.numRuns, detail: r.detail }])),
    ms: Date.now() - started,
  }
}

export function summarise(rows: AttributionRow[], options: { runs: number; seed: number }): AttributionMatrix {
  const within = (row: AttributionRow, allowed: string[]) => row.failed.every((c) => allowed.includes(c))
  return {
    ...options,
    rows,
    onlyTargets: rows.filter((r) => within(r, r.targets)).length,
    onlyTargetsOrConsequences: rows.filter((r) => r.unexplained.length === 0).length,
  }
}

const percent = (n: number, of: number) => (of === 0 ? '0%' : `${((100 * n) / of).toFixed(1)}%`)

/** The matrix as a Markdown table with the shares above it. */
export function attributionMarkdown(matrix: AttributionMatrix): string {
  const n = matrix.rows.length
  const lines = [
    `Seed ${matrix.seed}, ${matrix.runs} runs per clause, every applicable clause per mutant, no shrinking.`,
    '',
    `- mutants that fail only their targets: ${matrix.onlyTargets} of ${n} (${percent(matrix.onlyTargets, n)})`,
    `- mutants that fail only their targets or declared consequences: ${matrix.onlyTargetsOrConsequences} of ${n} ` +
      `(${percent(matrix.onlyTargetsOrConsequences, n)})`,
    '',
    '| mutant | targets | declared consequences | also fails (unexplained) | every clause it fails |',
    '|---|---|---|---|---|',
  ]
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—')
  for (const r of matrix.rows) {
    const survived = r.survivedTargets.length ? ` (survived at these runs: ${r.survivedTargets.join(', ')})` : ''
    lines.push(`| ${r.mutant} | ${list(r.targets)}${survived} | ${list(r.consequences)} | ${list(r.unexplained)} | ${list(r.failed)} |`)
  }
  const errored = matrix.rows.filter((r) => Object.keys(r.errors).length > 0)
  if (errored.length) {
    lines.push('', 'Harness errors (no verdict):', '')
    for (const r of errored) for (const [clause, error] of Object.entries(r.errors)) lines.push(`- ${r.mutant} ${clause}: ${error.split('\n')[0]}`)
  }
  return `${lines.join('\n')}\n`
}
