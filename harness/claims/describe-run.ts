/** One-line text for outcomes and runs, for violation details. */
import type { CallOutcome } from './call-tool.js'
import type { RunResult } from './sequential-orders.js'

export function describeOutcome(outcome: CallOutcome | undefined): string {
  if (outcome === undefined) return 'did not run'
  if (outcome.ok) return JSON.stringify(outcome.value) ?? String(outcome.value)
  return `error${outcome.error.code ? ` ${outcome.error.code}` : ''} "${outcome.error.message}"`
}

export function describeRun(result: RunResult, which: readonly number[]): string {
  return `${which.map((i) => `#${i + 1} → ${describeOutcome(result.outcomes[i])}`).join(', ')}; state ${JSON.stringify(result.state)}`
}
