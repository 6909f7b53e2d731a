/** A property's verdict as a test reports it to the reporter, beside pass/fail. */
export interface PropertyMeta {
  clause: string
  level: string
  profile: string
  status: 'passed' | 'failed' | 'error'
  numRuns?: number
  counterexample?: string
  violations?: { clause: string; detail: string }[]
  /** The case first found, before shrinking kept the same check: its violations. */
  originalViolations?: { clause: string; detail: string }[]
  error?: string
}

