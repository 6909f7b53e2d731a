/** The terminal summary: one line per claim; under a refuted claim, what broke, the case, the interleaving and how to replay it. */
import type { ClaimStatus, ClaimVerdict } from '../types.js'
import type { CheckToolReport } from './build-report.js'
import { claimReplayCommand } from '../../store/replay-command.js'

export const STATUS_LABEL: Record<ClaimStatus, string> = {
  refuted: 'REFUTED',
  'not-refuted': 'not refuted',
  unknown: 'UNKNOWN',
  'not-applicable': 'not applicable',
}

export function formatText(report: CheckToolReport): string {
  const toolModule = `${report.tool.module}${report.tool.export ? `#${report.tool.export}` : ''}`
  const lines = [`check-tool: ${report.tool.name} (${toolModule})${report.replay ? ` — replaying ${report.replay}` : ''}`]
  for (const c of report.claims) lines.push(...claimLines(c, (file) => claimReplayCommand(report.tool, file)))
  for (const note of report.notes) lines.push(`  note: ${note}`)
  for (const error of report.errors) lines.push(`  error: ${error}`)
  const s = report.summary
  lines.push(
    `${s.refuted} refuted, ${s.notRefuted} not refuted, ${s.unknown} unknown, ${s.notApplicable} not applicable — ` +
      `seed ${report.seed}, ${plural(report.runs, 'run')} per claim, ${(report.durationMs / 1000).toFixed(1)}s`,
  )
  return lines.join('\n')
}

/** A claim's line, and under a refuted one what broke, the case, the interleaving and how to replay it (check-mcp's text too). */
export function claimLines(c: ClaimVerdict, replay: (file: string) => string): string[] {
  const cases = c.status === 'refuted' ? `after ${plural(c.numRuns, 'case')}` : c.status === 'not-refuted' ? plural(c.numRuns, 'case') : (c.reason ?? '')
  const lines = [`  ${c.id}  ${STATUS_LABEL[c.status].padEnd(15)} ${cases}`]
  const ce = c.counterexample
  if (!ce) return lines
  for (const v of ce.violations) lines.push(...v.detail.split('\n').map((line) => `         ${line}`))
  lines.push(`         case: ${JSON.stringify(ce.case)}`)
  if (ce.interleaving) lines.push('         interleaving:', ...ce.interleaving.map((step, i) => `           ${i + 1}. ${step}`))
  lines.push(`         seed ${ce.seed}, path ${ce.path}`)
  if (ce.file) lines.push(`         replay: ${replay(ce.file)}`)
  return lines
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
