/**
 * The variant matrix, in parts so vitest runs them on separate workers: every conforming variant
 * passes every R clause (and fails only the S clauses it declares it breaks). Variants run one
 * after another within a part: properties that spend real time (TMO) must not share an event
 * loop with another variant's cases. `npm run variant-matrix` runs 5 seeds at default depth;
 * `npm test` runs one seed at a reduced depth (TOOLREG_VARIANT_RUNS).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { falseVerdicts, loadVariants, variantCheck, type VariantResult } from '../harness/mutation/variants.js'

export const PARTS = 3
const seeds = (process.env.TOOLREG_VARIANT_SEEDS ?? '20261201').split(',').map(Number)
const RUNS = Number(process.env.TOOLREG_VARIANT_RUNS ?? 5)

export async function defineVariantMatrix(part: number): Promise<void> {
  const variants = (await loadVariants()).filter((_, i) => i % PARTS === part)
  const matrix = new Map<string, Record<number, VariantResult[]>>()
  describe(`variant matrix (part ${part + 1} of ${PARTS}; seeds ${seeds.join(', ')}; ${RUNS} runs)`, () => {
    it.each(variants.map((v) => [v.name, v] as const))('%s passes every R clause', async (_name, variant) => {
      const bySeed: Record<number, VariantResult[]> = {}
      const wrong: string[] = []
      for (const seed of seeds) {
        bySeed[seed] = await variantCheck(variant, { runs: RUNS, seed })
        wrong.push(...falseVerdicts(variant, bySeed[seed]).map((w) => `seed ${seed}: ${w}`))
      }
      matrix.set(variant.name, bySeed)
      expect(wrong).toEqual([])
    }, 600_000)
  })
  afterAll(async () => {
    const rows = [...matrix.entries()].sort(([a], [b]) => a.localeCompare(b))
    await mkdir('reports', { recursive: true })
    const report = { seeds, runs: RUNS, variants: Object.fromEntries(rows) }
    await writeFile(`reports/variant-matrix-${part + 1}.json`, `${JSON.stringify(report, null, 2)}\n`)
  })
}
