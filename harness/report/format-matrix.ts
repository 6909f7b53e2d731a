/** The clause matrix as text for a terminal. */
import type { CertifyReport } from './build-report.js'

const MARK = { passed: 'pass', failed: 'FAIL', untested: 'untested', 'not-applicable': 'n/a' } as const

export function formatMatrix(report: CertifyReport): string {
  const { adapter } = report
  const version = adapter.version ? ` ${adapter.version}` : ''
  const seams = adapter.seams ? ` seams: ${adapter.seams.join(', ')}` : ''
  const lines = [`toolreg ${report.toolreg} — ${adapter.name}${version} [${adapter.profiles.join(', ')}]${seams}`, '']
  let family = ''
  for (const c of report.clauses) {
    const f = c.id.split('-')[0]!
    if (f !== family) {
      family = f
      lines.push(f)
    }
    const note = c.status === 'passed' ? '' : `  ${c.reason ?? ''}${c.counterexample ? ` → ${c.counterexample}` : ''}`
    const baseline = c.baseline === 'expected-failure'
      ? '  (expected by the baseline)'
      : c.baseline === 'stale' ? '  STALE baseline entry: this clause passes now' : ''
    lines.push(`  ${c.id.padEnd(7)} ${c.level.padEnd(5)} ${MARK[c.status].padEnd(8)}${note}${baseline}`)
    if (c.status === 'failed' && c.originalReason && c.originalReason !== c.reason) {
      lines.push(`${' '.repeat(24)}original case, before shrinking: ${c.originalReason}`)
    }
  }
  const s = report.summary
  lines.push(
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.untested} untested, ${s.notApplicable} not applicable — ` +
      `seed ${report.seed}, ${report.runs} runs per property, ${(report.durationMs / 1000).toFixed(1)}s`,
  )
  if (report.coverage) lines.push(`coverage of the implementation: ${report.coverage.lines}% lines, ${report.coverage.branches}% branches (reports/coverage/)`)
  for (const error of report.errors) lines.push(`error: ${error}`)
  return lines.join('\n')
}
