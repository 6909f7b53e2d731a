// Every conforming variant passes every R clause (and fails only the S clauses it declares it
// breaks): proof that each property fails only when it should. `npm run variant-matrix` runs the
// full matrix (5 seeds, default runs); `npm test` runs one seed of it.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { falseVerdicts, loadVariants, VARIANTS_DIR, type VariantResult } from '../harness/mutation/variants.js'

const variants = await loadVariants()
const seeds = (process.env.TOOLREG_VARIANT_SEEDS ?? '20261201').split(',').map(Number)
const RUNS = Number(process.env.TOOLREG_VARIANT_RUNS ?? 100)
const matrix = new Map<string, Record<number, VariantResult[]>>()

describe.concurrent('variant matrix', () => {
  it.each(variants.map((v) => [v.name, v] as const))('%s passes every R clause', async (_name, variant) => {
    const { variantCheck } = await import('../harness/mutation/variants.js')
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

describe('latitude table', () => {
  it('every latitude row of fixtures/variants/README.md is taken by a variant, and every variant names known rows', async () => {
    const table = await readFile(`${VARIANTS_DIR}/README.md`, 'utf8')
    const rows = [...table.matchAll(/^\| `(L-[a-z0-9-]+)` \|/gm)].map((m) => m[1]!)
    const taken = new Set(variants.flatMap((v) => v.latitudes))
    expect(rows.filter((row) => !taken.has(row))).toEqual([])
    expect([...taken].filter((row) => !rows.includes(row))).toEqual([])
  })
})

afterAll(async () => {
  const rows = [...matrix.entries()].sort(([a], [b]) => a.localeCompare(b))
  await mkdir('reports', { recursive: true })
  await writeFile('reports/variant-matrix.json', `${JSON.stringify({ seeds, runs: RUNS, variants: Object.fromEntries(rows) }, null, 2)}\n`)
})
