/** JUnit XML for a check-tool run: one testcase per claim; a refuted claim is a failure carrying its case and interleaving. */
import type { ClaimVerdict } from '../types.js'
import type { CheckToolReport } from './build-report.js'
import { claimReplayCommand } from '../../store/replay-command.js'

export const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

/** One claim as a testcase (check-mcp's JUnit too): a refuted claim is a failure carrying its case and interleaving. */
export function claimTestcase(classname: string, c: ClaimVerdict, replay: (file: string) => string): string {
  const open = `    <testcase classname="${escape(classname)}" name="${c.id}">`
  if (c.status === 'not-refuted') return `${open}</testcase>`
  if (c.status !== 'refuted') return `${open}<skipped message="${escape(`${c.status}: ${c.reason ?? ''}`)}"/></testcase>`
  const ce = c.counterexample
  const body = [
    c.reason ?? '',
    ce ? `case: ${JSON.stringify(ce.case, null, 2)}` : '',
    ce?.interleaving ? `interleaving:\n${ce.interleaving.map((step, i) => `  ${i + 1}. ${step}`).join('\n')}` : '',
    ce ? `seed ${ce.seed}, path ${ce.path}` : '',
    ce?.file ? `replay: ${replay(ce.file)}` : '',
  ]
    .filter(Boolean)
    .join('\n')
  return `${open}\n      <failure message="${escape(c.reason ?? 'refuted')}" type="refuted">${escape(body)}</failure>\n    </testcase>`
}

export function toJunit(report: CheckToolReport): string {
  const cases = report.claims.map((c) => claimTestcase(`toolreg.CLM.${report.tool.name}`, c, (file) => claimReplayCommand(report.tool, file)))
  const s = report.summary
  const name = escape(report.tool.name)
  const skipped = s.unknown + s.notApplicable
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="toolreg check-tool ${name}" tests="${report.claims.length}" failures="${s.refuted}" errors="${report.errors.length}" ` +
    `skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n` +
    `  <testsuite name="toolreg CLM ${name}" tests="${report.claims.length}" failures="${s.refuted}" skipped="${skipped}">\n` +
    `${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
  )
}
