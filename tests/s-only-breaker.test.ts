// A registry that breaks only S clauses certifies without --strict (exit 0) and fails with it (exit 1).
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'

const certify = (...args: string[]) =>
  execa(
    'node',
    ['harness/cli/toolreg.mjs', 'certify', '--adapter', 'fixtures/variants/s-only-breaker.ts', '--runs', '10', '--seed', '7', '--no-corpus', ...args],
    { reject: false, env: { FORCE_COLOR: '0' } },
  )

describe('s-only-breaker on the command line', () => {
  it('exits 0 without --strict and 1 with it', async () => {
    // The variant matrix checks every R clause of this variant: these runs need only the S clauses it breaks, beside an R clause.
    const broken = ['OUT-4', 'OUT-5', 'IN-5', 'PRE-8', 'CODE-5', 'DEF-4']
    const clauses = (ids: string[]) => [...ids, 'PRE-1'].flatMap((id) => ['--clause', id])
    const [plain, strict] = await Promise.all([certify(...clauses(broken)), certify('--strict', ...clauses(['OUT-4', 'IN-5']))])
    expect(plain.exitCode, plain.stdout).toBe(0)
    expect(strict.exitCode, strict.stdout).toBe(1)
    for (const id of broken) expect(plain.stdout).toMatch(new RegExp(`${id}\\s+S\\s+FAIL`))
    expect(plain.stdout).toMatch(/PRE-1\s+R\s+pass/)
  }, 300_000)
})
