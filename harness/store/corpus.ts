/**
 * The regression corpus: every counterexample found is kept (deduplicated by content) and its
 * case runs first on every later run of its clause, before new generation — found bugs stay found.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeAtomically } from '../report/write-file.js'
import { withTarget, type CounterexampleFile, type RunTarget } from './counterexample.js'

export interface CorpusCase {
  testCase: unknown
  schedule: number[]
}

export async function loadCorpus(dir: string, clause: string): Promise<CorpusCase[]> {
  const folder = join(dir, clause)
  if (!existsSync(folder)) return []
  const out: CorpusCase[] = []
  for (const file of (await readdir(folder)).filter((f) => f.endsWith('.json')).sort()) {
    try {
      const ce = JSON.parse(await readFile(join(folder, file), 'utf8')) as CounterexampleFile
      if (ce.clause === clause && Array.isArray(ce.schedule)) out.push({ testCase: ce.case, schedule: ce.schedule })
    } catch {
      // an unreadable corpus file is skipped, never fatal: the corpus only adds cases
    }
  }
  return out
}

/** Adds a counterexample to the corpus; returns false when an identical case is already there. */
export async function addToCorpus(dir: string, ce: CounterexampleFile, target?: RunTarget): Promise<boolean> {
  const digest = createHash('sha256').update(JSON.stringify([ce.clause, ce.case, ce.schedule])).digest('hex').slice(0, 16)
  const file = join(dir, ce.clause, `${digest}.json`)
  if (existsSync(file)) return false
  await writeAtomically(file, `${JSON.stringify(withTarget(ce, file, target), null, 2)}\n`)
  return true
}
