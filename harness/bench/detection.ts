/** Runs-to-detection: generated cases before a mutant's first failure, per target, per seed. */
import { killCheck, type MutantModule } from '../mutation/kill.js'
import { spread, type Spread } from './stats.js'

/** The default depth: a fault that needs more on some seed is the generators' to fix, not the depth's. */
export const DETECTION_RUNS = 100

export interface Detection {
  mutant: string
  clause: string
  /** Over the seeds it was found on. */
  casesToDetection: Spread
  /** Cases to detection on each seed, in seed order; null where the default depth did not find it. */
  perSeed: (number | null)[]
  /** The seeds on which the mutant survived the default depth. */
  missedSeeds: number[]
  /** How many seeds that is (`missedSeeds.length`). */
  survivedSeeds: number
}

export async function measureDetection(
  mutants: readonly MutantModule[],
  seeds: readonly number[],
  onMutant: (rows: Detection[]) => void = () => undefined,
): Promise<Detection[]> {
  const out: Detection[] = []
  for (const mutant of mutants) {
    const found = new Map<string, (number | null)[]>(mutant.targets.map((clause) => [clause, []]))
    for (const seed of seeds) {
      const results = await killCheck(mutant.adapter, mutant.targets, { runs: DETECTION_RUNS, seed })
      for (const clause of mutant.targets) {
        const r = results.find((x) => x.clause === clause)
        found.get(clause)!.push(r?.killed && r.numRuns !== undefined ? r.numRuns : null)
      }
    }
    const rows = mutant.targets.map((clause): Detection => {
      const perSeed = found.get(clause)!
      const missedSeeds = seeds.filter((_, i) => perSeed[i] === null)
      const hits = perSeed.filter((n): n is number => n !== null)
      return { mutant: mutant.name, clause, casesToDetection: spread(hits), perSeed, missedSeeds, survivedSeeds: missedSeeds.length }
    })
    out.push(...rows)
    onMutant(rows)
  }
  return out
}

/** One table row: the spread, the cases on each seed (`–` where not found), and the seeds missed. */
export function detectionRow(d: Detection, fmt: (s: Spread) => string): string {
  const perSeed = d.perSeed.map((n) => (n === null ? '–' : String(n))).join(' ')
  const missed = d.missedSeeds.length === 0 ? '—' : d.missedSeeds.join(', ')
  const spreadText = d.casesToDetection.samples === 0 ? 'never' : fmt(d.casesToDetection)
  return `| ${d.mutant} | ${d.clause} | ${spreadText} | ${perSeed} | ${missed} |`
}
