/** A failure, formatted for people: the clause, the seed and path, the shrunk case, the trace. */
import type { Failure } from './check-property.js'
import { clip } from '../safe/json-safe.js'

export function formatFailure(title: string, failure: Failure, file: string | undefined): string {
  const lines = [
    `${title}`,
    `  violated: ${failure.violations.map((v) => `${v.clause}${v.call ? ` (${v.call})` : ''}: ${v.detail}`).join('; ')}`,
    `  original case violated: ${failure.original.violations.map((v) => `${v.clause}${v.call ? ` (${v.call})` : ''}: ${v.detail}`).join('; ')}`,
    `  check kept while shrinking: ${failure.check}`,
    `  seed ${failure.seed}, path "${failure.path}", found after ${failure.numRuns} case(s), shrunk ${failure.numShrinks} time(s)`,
    `  schedule: [${failure.schedule.join(', ')}]`,
    `  shrunk case: ${JSON.stringify(failure.testCase)}`,
  ]
  if (failure.trace) {
    const steps = failure.trace.events.map((e) => (
      'stage' in e ? `${e.ev} ${e.stage}#${'index' in e ? e.index : ''} ${e.call}` : `${e.ev} ${'call' in e ? e.call : ''}`
    ))
    lines.push(`  trace: ${steps.join(' → ')}`)
    lines.push(`  outcomes: ${failure.trace.calls.map((c) => `${c.callId}=${c.rejected ? `rejected ${c.rejected}` : clip(String(c.resultJson))}`).join('; ')}`)
  }
  if (file) lines.push(`  replay: npx toolreg replay ${file}`)
  return lines.join('\n')
}
