// The clause catalogue is SPEC.md's text: every id, level, profile and whole rule, in order; the
// in-repo copy of SPEC.md is the shared one byte for byte whenever the shared one is beside the repo.
import { existsSync, readFileSync } from 'node:fs'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { parseSpecClauses } from '../harness/contract/catalogue/parse-spec.js'
import { CLAUSES } from '../harness/contract/clauses.js'

const inRepo = readFileSync(new URL('../harness/contract/SPEC.md', import.meta.url), 'utf8')
const shared = new URL('../../shared/SPEC.md', import.meta.url)
/** check-mcp's claim clauses (CLM-5..8) are in the repo's copy only, until the shared copy takes them. */
const withoutMcpClaims = (text: string) => text.split('\n').filter((line) => !/^- \*\*CLM-[5-8]\*\* /.test(line)).join('\n')

describe('clause catalogue', () => {
  it('equals the clauses of harness/contract/SPEC.md: ids, levels, profiles and whole rules, in order', () => {
    const fromSpec = parseSpecClauses(inRepo)
    expect(fromSpec.length).toBeGreaterThan(60)
    expect(CLAUSES.map((c) => ({ ...c }))).toEqual(fromSpec)
    expect(CLAUSES.filter((c) => c.rule.endsWith('…')).map((c) => c.id)).toEqual([])
  })

  it('harness/contract/SPEC.md is the v2 contract, and (but for CLM-5..8) ../shared/SPEC.md byte for byte wherever that is beside the repo', () => {
    expect(inRepo).toMatch(/^## Changes\n- v2 \(2026-12-01\)/m)
    // A clone on its own has no shared folder; CI and the developers' machines have it.
    const copies = existsSync(shared) ? [readFileSync(shared)] : []
    expect(copies.filter((copy) => !copy.equals(Buffer.from(withoutMcpClaims(inRepo))))).toEqual([])
  })

  it('toolreg clauses prints every rule whole', async () => {
    const run = await execa('node', ['harness/cli/toolreg.mjs', 'clauses'], { reject: false })
    expect(run.exitCode).toBe(0)
    for (const c of CLAUSES) expect(run.stdout).toContain(`${c.id.padEnd(7)} ${c.level.padEnd(5)} ${c.profile.padEnd(8)} ${c.rule}`)
  }, 60_000)
})
