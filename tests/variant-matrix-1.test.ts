// The variant matrix, part 1 (see tests/variant-matrix.ts), and the latitude table's check.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { loadVariants, VARIANTS_DIR } from '../harness/mutation/variants.js'
import { defineVariantMatrix } from './variant-matrix.js'

await defineVariantMatrix(0)

describe('latitude table', () => {
  it('every latitude row of fixtures/variants/README.md is taken by a variant, and every variant names known rows', async () => {
    const variants = await loadVariants()
    const table = await readFile(`${VARIANTS_DIR}/README.md`, 'utf8')
    const rows = [...table.matchAll(/^\| `(L-[a-z0-9-]+)` \|/gm)].map((m) => m[1]!)
    const taken = new Set(variants.flatMap((v) => v.latitudes))
    expect(rows.filter((row) => !taken.has(row))).toEqual([])
    expect([...taken].filter((row) => !rows.includes(row))).toEqual([])
  })
})
