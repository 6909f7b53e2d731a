/** The files a verdict leaves on disk, written by whoever judged it: its counterexample, and its corpus entry. */
import { addToCorpus } from '../store/corpus.js'
import { writeCounterexample } from '../store/counterexample.js'
import type { Verdict } from './verdict.js'

export async function persistVerdict(verdict: Verdict, dirs: { counterexampleDir: string; corpusDir?: string | undefined }): Promise<Verdict> {
  if (!verdict.counterexample) return verdict
  const file = await writeCounterexample(dirs.counterexampleDir, verdict.counterexample)
  if (dirs.corpusDir) await addToCorpus(dirs.corpusDir, verdict.counterexample)
  return { ...verdict, counterexampleFile: file }
}
