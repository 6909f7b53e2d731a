/**
 * Verdicts from what the watchdog and the escape traps recorded: a property failed by an escape
 * that surfaced after its cases (in the worker), and, on the host, a clause whose worker was
 * killed for blocking the event loop, or died, and escapes the worker could not report itself.
 */
import type { Violation } from '../oracle/judge.js'
import type { CollectedResult } from './collecting-reporter.js'
import { addToCorpus } from './corpus.js'
import { writeCounterexample, type CounterexampleFile } from './counterexample.js'
import type { PropertyMeta } from './property-meta.js'
import type { ConformanceProperty } from './property.js'
import { SCENARIO_PROPERTIES } from './scenario-property.js'
import type { BlockedRecord, Escape, RunningCase } from './watchdog-record.js'

/** A replayable file for the case something happened in, when the case was kept. */
export function counterexampleOf(at: RunningCase, adapter: string, seed: number, violations: Violation[]): CounterexampleFile | undefined {
  if (at.case === undefined) return undefined
  return { toolreg: 'counterexample', version: 1, clause: at.clause, property: at.title, adapter, seed, path: at.path ?? '', case: JSON.parse(at.case) as unknown, schedule: [], violations }
}

/** A property whose cases passed, failed after all by escapes (a late timer, changed globals). */
export async function escapedVerdict(base: PropertyMeta, escapes: readonly Escape[], adapter: string, seed: number, dir: string): Promise<PropertyMeta> {
  const violations = [...new Set(escapes.map((e) => e.detail))].map((detail): Violation => ({ clause: base.clause, detail }))
  const found = escapes.map((e) => (e.at ? counterexampleOf(e.at, adapter, seed, violations) : undefined)).find((file) => file !== undefined)
  const file = found ? await writeCounterexample(dir, found) : undefined
  return { ...base, status: 'failed', violations, ...(file ? { counterexample: file } : {}) }
}

/**
 * The clause whose case blocked the event loop: failed, naming the stage it blocked in. The case
 * joins the regression corpus too (when there is one), so it runs first next time.
 */
export async function blockedVerdict(
  record: BlockedRecord & { clause: string }, property: ConformanceProperty, adapter: string, seed: number, dir: string, corpusDir?: string,
): Promise<CollectedResult> {
  const where = record.stage ? `in stage ${record.stage}` : SCENARIO_PROPERTIES.has(property) ? 'before any stage' : 'in its check (a property that records no stages)'
  const detail = `event loop blocked for over ${Math.round(record.blockedMs / 100) / 10} s ${where}${record.caseNumber ? ` (case ${record.caseNumber})` : ''}: a synchronous loop or long synchronous work in the implementation; the worker was killed and the remaining clauses re-run`
  const violations = [{ clause: record.clause, detail }]
  const found = counterexampleOf(record, adapter, seed, violations)
  const file = found ? await writeCounterexample(dir, found) : undefined
  if (found && corpusDir) await addToCorpus(corpusDir, found)
  return { ...metaOf(property), status: 'failed', title: property.title, violations, ...(file ? { counterexample: file } : {}) }
}

/** The clause running when the worker died some other way (killed, out of memory): a harness error naming it. */
export function diedVerdict(property: ConformanceProperty): CollectedResult {
  return { ...metaOf(property), status: 'error', title: property.title, error: 'the worker running the suites died while checking this clause (killed or out of memory?)' }
}

/**
 * Escapes the worker recorded, applied to the verdicts: a clause that passed (or broke) becomes
 * failed; escapes outside any property are harness-level errors.
 */
export function applyEscapes(results: readonly CollectedResult[], escapes: readonly Escape[]): { results: CollectedResult[]; errors: string[] } {
  const out = [...results]
  const errors: string[] = []
  for (const escape of escapes) {
    if (escape.at === undefined) {
      errors.push(`${escape.kind} outside any property: ${escape.detail}`)
      continue
    }
    const index = out.findIndex((r) => r.clause === escape.at?.clause)
    const result = out[index]
    if (!result || result.status === 'failed') continue
    const { error: _replaced, errorText: _alsoReplaced, ...rest } = result
    out[index] = { ...rest, status: 'failed', violations: [{ clause: result.clause, detail: escape.detail }] }
  }
  return { results: out, errors }
}

const metaOf = (property: ConformanceProperty) => ({ clause: property.id, level: property.level, profile: property.profile })
