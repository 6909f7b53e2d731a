/** A Markdown summary of a check-tool run, fit for a pull-request comment. */
import type { ClaimVerdict } from '../types.js'
import type { CheckToolReport } from './build-report.js'
import { STATUS_LABEL } from './format-text.js'
import { claimReplayCommand } from '../../store/replay-command.js'

export const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** A claim's detail cell (check-mcp's Markdown too): the reason and case of a refuted claim, else its cases or reason. */
export function claimDetail(c: ClaimVerdict): string {
  const detail = c.counterexample
    ? `${c.reason ?? ''} — case \`${JSON.stringify(c.counterexample.case)}\``
    : c.status === 'not-refuted' ? `${c.numRuns} cases` : (c.reason ?? '')
  return cell(detail).slice(0, 400)
}

export function toMarkdown(report: CheckToolReport): string {
  const s = report.summary
  const verdict = report.errors.length > 0
    ? 'the tool module failed'
    : s.refuted > 0 ? 'claims refuted' : s.unknown > 0 ? 'no claim refuted (some unknown)' : 'no claim refuted'
  const lines = [
    `### toolreg check-tool: ${report.tool.name} — ${verdict}`,
    '',
    `${s.refuted} refuted · ${s.notRefuted} not refuted · ${s.unknown} unknown · ${s.notApplicable} not applicable`,
    `Module \`${report.tool.module}${report.tool.export ? `#${report.tool.export}` : ''}\` · ` +
      `seed \`${report.seed}\` · ${report.runs} runs per claim · ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    '| claim | verdict | detail |',
    '|---|---|---|',
  ]
  for (const c of report.claims) lines.push(`| ${c.id} | ${STATUS_LABEL[c.status]} | ${claimDetail(c)} |`)
  for (const c of report.claims.filter((c) => c.counterexample?.interleaving)) {
    lines.push(
      '',
      `<details><summary>${c.id}: the refuting interleaving</summary>`,
      '',
      ...c.counterexample!.interleaving!.map((step, i) => `${i + 1}. ${step}`),
      '',
      '</details>',
    )
  }
  const files = report.claims.flatMap((c) => (c.counterexample?.file ? [`- ${c.id}: \`${claimReplayCommand(report.tool, c.counterexample.file)}\``] : []))
  if (files.length > 0) lines.push('', '**Saved cases** (replay each):', ...files)
  if (report.notes.length > 0) lines.push('', '**Notes**', ...report.notes.map((n) => `- ${n}`))
  if (report.errors.length > 0) lines.push('', '**Errors**', ...report.errors.map((e) => `- ${e}`))
  return `${lines.join('\n')}\n`
}
