/**
 * The kill check: certify a mutant on chosen clauses and say which ones it fails. Used by the
 * kill-matrix test (targets only) and by `npm run kill-matrix` (every clause).
 */
import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { checkProperty } from '../engine/check-property.js'
import { applicable } from '../in-vitest/define-suite.js'
import type { ConformanceProperty } from '../property/property.js'
import { PROPERTIES } from '../../suites/index.js'

export interface MutantModule {
  file: string
  name: string
  adapter: ConformanceAdapter
  targets: string[]
  /** Clauses beyond the targets that the fault really breaks, each explained in the header. */
  consequences?: string[]
}

export const MUTANTS_DIR = resolve(new URL('../../fixtures/mutants', import.meta.url).pathname)

export async function loadMutants(dir = MUTANTS_DIR): Promise<MutantModule[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.startsWith('support') && !f.endsWith('.test.ts')).sort()
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as { default: ConformanceAdapter; targets?: string[]; consequences?: string[] }
      if (!Array.isArray(module.targets) || module.targets.length === 0) throw new Error(`${file} exports no targets`)
      const consequences = Array.isArray(module.consequences) ? { consequences: module.consequences } : {}
      return { file, name: file.replace(/\.ts$/, ''), adapter: module.default, targets: module.targets, ...consequences }
    }),
  )
}

export interface KillResult {
  clause: string
  killed: boolean
  /** Generated cases before the first failure (runs-to-detection). */
  numRuns?: number
  detail?: string
}

/** Runs the properties of `clauses` against `adapter`; each is killed when it fails. */
export async function killCheck(adapter: ConformanceAdapter, clauses: readonly string[], options: { runs: number; seed: number }): Promise<KillResult[]> {
  const chosen: ConformanceProperty[] = PROPERTIES.filter((p) => clauses.includes(p.id) && applicable(p, adapter))
  const out: KillResult[] = []
  for (const property of chosen) {
    const verdict = await checkProperty(property, adapter, {
      runs: Math.min(options.runs, property.maxRuns ?? options.runs),
      seed: options.seed,
      shrink: false,
    })
    if (verdict.status === 'failed') out.push({
      clause: property.id,
      killed: true,
      numRuns: verdict.failure.numRuns,
      detail: verdict.failure.violations[0]?.detail,
    })
    else out.push({ clause: property.id, killed: false, ...(verdict.status === 'error' ? { detail: verdict.error } : {}) })
  }
  return out
}
