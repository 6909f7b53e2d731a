/**
 * Conforming variants, the dual of mutants: registries that take another legal branch of SPEC.md
 * (or break only S clauses). A variant must pass every applicable R clause; a failure there is a
 * false positive of the harness, as serious as a surviving mutant.
 */
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { checkProperty } from '../engine/check-property.js'
import { DEFAULT_RUNS } from '../engine/resolve-run.js'
import { applicable } from '../in-vitest/define-suite.js'
import { PROPERTIES } from '../../suites/index.js'

export interface VariantModule {
  file: string
  name: string
  adapter: ConformanceAdapter
  /** Rows of fixtures/variants/README.md's latitude table that this variant takes. */
  latitudes: string[]
  /** S clauses this variant breaks on purpose; they must fail, and the run must still pass. */
  breaksOnly: string[]
}

export const VARIANTS_DIR = resolve(new URL('../../fixtures/variants', import.meta.url).pathname)

export async function loadVariants(dir = VARIANTS_DIR): Promise<VariantModule[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.startsWith('support') && !f.endsWith('.test.ts')).sort()
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as {
        default: ConformanceAdapter
        latitudes?: string[]
        breaksOnly?: string[]
      }
      if (!Array.isArray(module.latitudes) || module.latitudes.length === 0) throw new Error(`${file} exports no latitudes`)
      const name = file.replace(/\.ts$/, '')
      return { file, name, adapter: module.default, latitudes: module.latitudes, breaksOnly: module.breaksOnly ?? [] }
    }),
  )
}

export interface VariantResult {
  clause: string
  level: 'R' | 'S'
  status: 'passed' | 'failed' | 'error'
  detail?: string
}

/**
 * Certifies `variant` on every applicable property (R and S) at one seed: `runs` cases each, and at
 * least the default depth for the S clauses it declares broken (a break must be found as a fault
 * is, at the default depth; a reduced depth is for the R clauses that must pass).
 */
export async function variantCheck(variant: VariantModule, options: { runs: number; seed: number }): Promise<VariantResult[]> {
  const chosen = PROPERTIES.filter((p) => applicable(p, variant.adapter))
  const out: VariantResult[] = []
  for (const property of chosen) {
    const wanted = variant.breaksOnly.includes(property.id) ? Math.max(options.runs, DEFAULT_RUNS) : options.runs
    const runs = Math.min(wanted, property.maxRuns ?? wanted)
    const verdict = await checkProperty(property, variant.adapter, { runs, seed: options.seed, shrink: false })
    const base = { clause: property.id, level: property.level, status: verdict.status }
    if (verdict.status === 'failed') out.push({ ...base, detail: verdict.failure.violations[0]?.detail })
    else if (verdict.status === 'error') out.push({ ...base, detail: verdict.error })
    else out.push(base)
  }
  return out
}

/** What a variant got wrong: an R clause that did not pass, or a declared S break that passed. */
export function falseVerdicts(variant: VariantModule, results: readonly VariantResult[]): string[] {
  const wrongR = results.filter((r) => r.level === 'R' && r.status !== 'passed').map((r) => `${r.clause} ${r.status}: ${r.detail ?? ''}`)
  const unbroken = variant.breaksOnly.filter(
    (id) => results.find((r) => r.clause === id)?.status !== 'failed',
  ).map((id) => `${id} declared broken but did not fail`)
  const strayS = results
    .filter((r) => r.level === 'S' && r.status !== 'passed' && !variant.breaksOnly.includes(r.clause))
    .map((r) => `${r.clause} ${r.status}: ${r.detail ?? ''}`)
  return [...wrongR, ...unbroken, ...strayS]
}
