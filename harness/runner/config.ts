/** What a certification run is told: one JSON value, shared by the CLI and the vitest workers. */
export interface CertifyConfig {
  /** Absolute path of the adapter module, or undefined for the bundled reference. */
  adapterPath?: string
  /** A protocol server's command line: the registry runs out of process (harness/protocol/). */
  command?: string
  /** Check every protocol message against its schema, on both sides. */
  validateProtocol?: boolean
  runs: number
  seed: number
  /** Clause IDs to check; empty means all. */
  clauses: string[]
  /** Where counterexample files go. */
  counterexampleDir: string
  /** Run only this share of the properties. */
  shard?: { index: number; count: number }
  /** The regression corpus: replayed first, and every new counterexample is added. */
  corpusDir?: string
}

export const DEFAULT_RUNS = 100

declare module 'vitest' {
  export interface ProvidedContext {
    toolreg: CertifyConfig
  }
}
