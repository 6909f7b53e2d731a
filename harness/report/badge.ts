/** A shields.io endpoint badge: "62/62 R" when conformant, the failing clauses otherwise. */
import type { CertifyReport } from './build-report.js'

export function toBadge(report: CertifyReport): { schemaVersion: 1; label: string; message: string; color: string } {
  const failed = report.clauses.filter((c) => (c.status === 'failed' && c.baseline !== 'expected-failure') || c.baseline === 'stale').map((c) => c.id)
  if (report.errors.length > 0) return { schemaVersion: 1, label: 'toolreg', message: 'error', color: 'lightgrey' }
  if (failed.length > 0) {
    const shown = failed.length > 4 ? `${failed.slice(0, 4).join(', ')} +${failed.length - 4}` : failed.join(', ')
    return { schemaVersion: 1, label: 'toolreg', message: `failing: ${shown}`, color: 'red' }
  }
  const required = report.clauses.filter((c) => c.level === 'R' && c.status !== 'not-applicable')
  const passed = required.filter((c) => c.status === 'passed').length
  return { schemaVersion: 1, label: 'toolreg', message: `${passed}/${required.length} R`, color: passed === required.length ? 'brightgreen' : 'yellow' }
}
