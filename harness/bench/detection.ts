/** Runs-to-detection: generated cases before a mutant's first failure, per target, over seeds. */
import { killCheck, type MutantModule } from '../mutation/kill.js'
import { spread, type Spread } from './stats.js'

export interface Detection {
  mutant: string
  clause: string
  casesToDetection: Spread
  /** Seeds on which the mutant survived the default depth. */
  survivedSeeds: number
}

export async function measureDetection(mutants: readonly MutantModule[], seeds: readonly number[]): Promise<Detection[]> {
  const out: Detection[] = []
  for (const mutant of mutants) {
    const perClause = new Map<string, number[]>()
    const survived = new Map<string, number>()
    for (const seed of seeds) {
      for (const r of await killCheck(mutant.adapter, mutant.targets, { runs: 100, seed })) {
        if (r.killed && r.numRuns !== undefined) perClause.set(r.clause, [...(perClause.get(r.clause) ?? []), r.numRuns])
        else survived.set(r.clause, (survived.get(r.clause) ?? 0) + 1)
      }
    }
    for (const clause of mutant.targets) {
      out.push({ mutant: mutant.name, clause, casesToDetection: spread(perClause.get(clause) ?? []), survivedSeeds: survived.get(clause) ?? 0 })
    }
  }
  return out
}
