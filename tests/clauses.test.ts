// The clause catalogue is SPEC.md's text: every id, level, profile and whole rule, in order. The
// contract lives in this repository (harness/contract/SPEC.md, ADAPTER.md beside it).
import { readFileSync } from 'node:fs'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { parseSpecClauses } from '../harness/contract/catalogue/parse-spec.js'
import { CLAUSES } from '../harness/contract/clauses.js'

const inRepo = readFileSync(new URL('../harness/contract/SPEC.md', import.meta.url), 'utf8')

describe('clause catalogue', () => {
  it('equals the clauses of harness/contract/SPEC.md: ids, levels, profiles and whole rules, in order', () => {
    const fromSpec = parseSpecClauses(inRepo)
    expect(fromSpec.length).toBeGreaterThan(60)
    expect(CLAUSES.map((c) => ({ ...c }))).toEqual(fromSpec)
    expect(CLAUSES.filter((c) => c.rule.endsWith('…')).map((c) => c.id)).toEqual([])
  })

  it('harness/contract/SPEC.md is the v2 contract', () => {
    expect(inRepo).toMatch(/^## Changes\n- v2 \(2026-12-01\)/m)
  })

  it('toolreg clauses prints every rule whole', async () => {
    const run = await execa('node', ['harness/cli/toolreg.mjs', 'clauses'], { reject: false })
    expect(run.exitCode).toBe(0)
    for (const c of CLAUSES) expect(run.stdout).toContain(`${c.id.padEnd(7)} ${c.level.padEnd(5)} ${c.profile.padEnd(8)} ${c.rule}`)
  })
})
