/**
 * The conformance suites as vitest tests, parameterised by an adapter, for a registry project
 * that runs them in its own vitest setup (`toolreg certify` runs them without vitest):
 *
 *   import { defineConformanceSuite } from 'toolreg/vitest'
 *   defineConformanceSuite(myAdapter)
 *
 * The options resolve through the same resolver as the command line's, and each test judges
 * its clause through the same function as certify's children.
 */
import { relative } from 'node:path'
import { describe, test } from 'vitest'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { PROPERTIES, SUITES } from '../../suites/index.js'
import type { Shard } from '../engine/shard.js'
import { loadCorpus } from '../store/corpus.js'
import { judgeClause } from '../engine/judge-clause.js'
import { persistVerdict } from '../engine/persist-verdict.js'
import { resolveRun, runsFor, selectProperties } from '../engine/resolve-run.js'
import type { ConformanceProperty } from '../property/property.js'
import type { Verdict } from '../engine/verdict.js'
import { replayCommand } from '../store/replay-command.js'

export interface SuiteOptions {
  runs?: number
  seed?: number
  clauses?: readonly string[]
  /** Where counterexample files are written; default reports/counterexamples. */
  counterexampleDir?: string
  /** Run only this share of the properties (`--shard i/n`). */
  shard?: Shard
  /** The regression corpus directory: its cases run first, and new counterexamples are added. */
  corpusDir?: string
  /**
   * The module the adapter is exported from (its default export), recorded in counterexample
   * files so that `npx toolreg replay <file>` re-runs them on it; without it no replay command is printed.
   */
  adapterModule?: string
}

declare module 'vitest' {
  interface TaskMeta {
    toolreg?: Verdict
  }
}

/** Whether `property` runs on `adapter` (its profile and seams), given an optional clause list. */
export const applicable = (property: ConformanceProperty, adapter: ConformanceAdapter, clauses: readonly string[] = []): boolean =>
  selectProperties({ clauses }, [property], adapter).length === 1

export function defineConformanceSuite(adapter: ConformanceAdapter, options: SuiteOptions = {}): void {
  const { adapterModule, ...rest } = options
  const run = resolveRun({ ...rest, ...(adapterModule ? { adapter: adapterModule } : {}), corpus: options.corpusDir ?? false })
  const chosen = new Set(selectProperties(run, PROPERTIES, adapter))
  for (const [family, properties] of Object.entries(SUITES)) {
    const inFamily = properties.filter((p) => chosen.has(p))
    if (inFamily.length === 0) continue
    describe(family.toUpperCase(), () => {
      for (const property of inFamily) {
        test(property.title, async ({ task }) => {
          const examples = run.corpusDir ? await loadCorpus(run.corpusDir, property.id) : []
          const verdict = await persistVerdict(await judgeClause(property, adapter, { runs: runsFor(run, property), seed: run.seed, examples }), run)
          task.meta.toolreg = verdict
          if (verdict.status === 'error') throw new Error(`harness or adapter error: ${verdict.error}`)
          if (verdict.status === 'failed') throw new Error(failureText(verdict, run.target.adapterPath !== undefined))
        })
      }
    })
  }
}

function failureText(verdict: Verdict, replayable: boolean): string {
  const ce = verdict.counterexample
  const lines = [verdict.title, `  violated: ${(verdict.violations ?? []).map((v) => `${v.clause}: ${v.detail}`).join('; ')}`]
  const found = verdict.numRuns !== undefined ? `, found after ${verdict.numRuns} case(s)` : ''
  if (ce) lines.push(`  seed ${ce.seed}, path "${ce.path}"${found}`, '  what happened:', ...(ce.story ?? []).map((line) => `    ${line}`))
  if (verdict.counterexampleFile && replayable) lines.push(`  replay: ${replayCommand(relative(process.cwd(), verdict.counterexampleFile))}`)
  else if (verdict.counterexampleFile) lines.push(`  saved: ${verdict.counterexampleFile} (give defineConformanceSuite the adapterModule option to replay it)`)
  return lines.join('\n')
}
