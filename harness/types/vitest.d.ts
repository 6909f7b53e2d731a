// The declarations of `toolreg/vitest` (harness/vitest.ts). Written by hand, since generating them
// would type-check every suite; tests/public-types.ts holds them equal to the source's types.
import type { ConformanceAdapter } from './toolreg.js'

export interface SuiteOptions {
  runs?: number
  seed?: number
  clauses?: readonly string[]
  /** Where counterexample files are written; default reports/counterexamples. */
  counterexampleDir?: string
  /** Run only this share of the properties (`--shard i/n`): { index, count }, 1-based. */
  shard?: { index: number; count: number }
  /** The regression corpus directory: its cases run first, and new counterexamples are added. */
  corpusDir?: string
  /**
   * The module the adapter is exported from (its default export), recorded in counterexample
   * files so that `npx toolreg replay <file>` re-runs them on it; without it no replay command is printed.
   */
  adapterModule?: string
}

/** One vitest test per applicable clause, each judged as `toolreg certify` judges it. */
export declare function defineConformanceSuite(adapter: ConformanceAdapter, options?: SuiteOptions): void
