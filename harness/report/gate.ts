/**
 * The last line of a run: the verdict a CI gate reads, in words that match the exit code
 * (`exitCode`): pass, with the known failures it let through; FAIL, naming the new failures and
 * stale baseline entries; ERROR, when the harness or the adapter failed.
 */
import { exitCode, type CertifyReport, type ClauseVerdict } from './build-report.js'

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
const ids = (clauses: readonly ClauseVerdict[]) => clauses.map((c) => c.id).join(', ')

export function gateLine(report: CertifyReport, strict: boolean): string {
  const known = report.clauses.filter((c) => c.baseline === 'expected-failure')
  const code = exitCode(report, strict)
  if (code === 2) return `gate: ERROR — ${counted(report.errors.length, 'harness or adapter error')} (exit 2)`
  if (code === 0) return `gate: pass${known.length > 0 ? ` — ${counted(known.length, 'known failure')}` : ''}`
  const binding = (c: ClauseVerdict) => c.level === 'R' || (strict && c.level === 'S')
  const failing = report.clauses.filter((c) => c.status === 'failed' && binding(c) && c.baseline !== 'expected-failure')
  const stale = report.clauses.filter((c) => c.baseline === 'stale')
  const parts = [
    failing.length > 0 && `new ${failing.length === 1 ? 'failure' : 'failures'} ${ids(failing)}`,
    stale.length > 0 && `stale baseline ${stale.length === 1 ? 'entry' : 'entries'} ${ids(stale)}`,
  ]
  return `gate: FAIL — ${parts.filter(Boolean).join('; ')}`
}
