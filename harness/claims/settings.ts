/** How hard each claim is checked, and the real-time bounds of a trial. */
export interface ClaimSettings {
  seed: number
  /** Generated cases per claim. */
  runs: number
  /** Wall-clock budget per claim; a claim that runs out of it is `unknown`. */
  timeLimitMs: number
  /** CLM-3: how soon after its signal aborts the body must settle. */
  graceMs: number
  /** A call (or a concurrent run) that has not settled after this long stalls its trial. */
  trialTimeoutMs: number
  /** CLM-2 under real timers with random delays at every start and pause(), not fast-check's scheduler. */
  stress?: boolean
}

export const DEFAULT_RUNS = 100
export const DEFAULT_TIME_LIMIT_MS = 60_000
export const DEFAULT_GRACE_MS = 50
export const DEFAULT_TRIAL_TIMEOUT_MS = 5_000
