/** The files a verdict leaves on disk, written by whoever judged it: its counterexample, and its corpus entry. */
import { addToCorpus } from '../store/corpus.js'
import { writeCounterexample, type RunTarget } from '../store/counterexample.js'
import type { Verdict } from './verdict.js'

/** Where files go, and what the run certified (recorded in each file, for `replay`). */
export interface PersistTo {
  counterexampleDir: string
  corpusDir?: string | undefined
  target?: RunTarget
}

export async function persistVerdict(verdict: Verdict, to: PersistTo): Promise<Verdict> {
  if (!verdict.counterexample) return verdict
  const file = await writeCounterexample(to.counterexampleDir, verdict.counterexample, to.target)
  if (to.corpusDir) await addToCorpus(to.corpusDir, verdict.counterexample, to.target)
  return { ...verdict, counterexampleFile: file }
}
