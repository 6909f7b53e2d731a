/** The counterexample files a report points at, read back for the formats that show them. */
import { readFile } from 'node:fs/promises'
import type { CounterexampleFile } from '../store/counterexample.js'
import type { CertifyReport } from './build-report.js'

export type Counterexamples = ReadonlyMap<string, CounterexampleFile>

export async function loadCounterexamples(report: CertifyReport): Promise<Counterexamples> {
  const out = new Map<string, CounterexampleFile>()
  for (const clause of report.clauses) {
    if (!clause.counterexample) continue
    try {
      out.set(clause.id, JSON.parse(await readFile(clause.counterexample, 'utf8')) as CounterexampleFile)
    } catch {
      // a report can outlive its counterexample files; the formats then show the path only
    }
  }
  return out
}
