/** check-mcp's report as text, JUnit XML and Markdown, each claim formatted as check-tool formats it. */
import type { CheckMcpReport } from './build-mcp-report.js'
import { claimLines, plural, STATUS_LABEL } from './format-text.js'
import { claimTestcase, escape } from './junit.js'
import { cell, claimDetail } from './markdown.js'
import { mcpReplayCommand } from '../../store/replay-command.js'

const hintsText = (hints: object) => Object.entries(hints).map(([k, v]) => `${k}: ${String(v)}`).join(', ') || 'no hints'
const summaryText = (s: CheckMcpReport['summary']) =>
  `${s.refuted} refuted, ${s.notRefuted} not refuted, ${s.unknown} unknown, ${s.notApplicable} not applicable`
const applicable = (claims: CheckMcpReport['tools'][number]['claims']) => claims.filter((c) => c.status !== 'not-applicable')

export function formatMcpText(report: CheckMcpReport): string {
  const lines = [`check-mcp: ${report.server.command.join(' ')}${report.replay ? ` — replaying ${report.replay}` : ''}`]
  for (const tool of report.tools) {
    const claims = applicable(tool.claims)
    if (claims.length === 0) continue
    const replay = (file: string) => mcpReplayCommand(report.server, file)
    lines.push(`  ${tool.name} (${hintsText(tool.hints)})`, ...claims.flatMap((c) => claimLines(c, replay).map((line) => `  ${line}`)))
  }
  const quiet = report.tools.filter((t) => applicable(t.claims).length === 0).map((t) => t.name)
  if (quiet.length > 0) lines.push(`  no claim to check: ${quiet.join(', ')}`)
  for (const note of report.notes) lines.push(`  note: ${note}`)
  for (const error of report.errors) lines.push(`  error: ${error}`)
  lines.push(
    `${summaryText(report.summary)} — seed ${report.seed}, ${plural(report.runs, 'run')} per claim, ` +
      `${plural(report.server.started, 'server')} started, ${(report.durationMs / 1000).toFixed(1)}s`,
  )
  return lines.join('\n')
}

export function toMcpJunit(report: CheckMcpReport): string {
  const s = report.summary
  const total = report.tools.reduce((n, t) => n + t.claims.length, 0)
  const suites = report.tools.map((tool) => {
    const cases = tool.claims.map((c) => claimTestcase(`toolreg.mcp.${tool.name}`, c, (file) => mcpReplayCommand(report.server, file)))
    const failures = tool.claims.filter((c) => c.status === 'refuted').length
    const skipped = tool.claims.filter((c) => c.status === 'unknown' || c.status === 'not-applicable').length
    const open = `  <testsuite name="${escape(tool.name)}" tests="${tool.claims.length}" failures="${failures}" skipped="${skipped}">`
    return `${open}\n${cases.join('\n')}\n  </testsuite>`
  })
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="toolreg check-mcp" tests="${total}" failures="${s.refuted}" errors="${report.errors.length}" ` +
    `skipped="${s.unknown + s.notApplicable}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
  )
}

export function toMcpMarkdown(report: CheckMcpReport): string {
  const s = report.summary
  const verdict = report.errors.length > 0
    ? 'the server failed'
    : s.refuted > 0 ? 'claims refuted' : s.unknown > 0 ? 'no claim refuted (some unknown)' : 'no claim refuted'
  const lines = [
    `### toolreg check-mcp — ${verdict}`,
    '',
    `${s.refuted} refuted · ${s.notRefuted} not refuted · ${s.unknown} unknown · ${s.notApplicable} not applicable`,
    `Server \`${cell(report.server.command.join(' '))}\` · seed \`${report.seed}\` · ` +
      `${report.runs} runs per claim · ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    '| tool | hints | claim | verdict | detail |',
    '|---|---|---|---|---|',
  ]
  for (const tool of report.tools) {
    for (const c of applicable(tool.claims)) {
      lines.push(`| ${cell(tool.name)} | ${cell(hintsText(tool.hints))} | ${c.id} | ${STATUS_LABEL[c.status]} | ${claimDetail(c)} |`)
    }
  }
  const files = report.tools.flatMap((t) => t.claims.flatMap((c) => (c.counterexample?.file ? [`- ${t.name} ${c.id}: \`${c.counterexample.file}\``] : [])))
  if (files.length > 0) lines.push('', '**Saved cases** (replay each):', ...files)
  if (report.notes.length > 0) lines.push('', '**Notes**', ...report.notes.map((n) => `- ${n}`))
  if (report.errors.length > 0) lines.push('', '**Errors**', ...report.errors.map((e) => `- ${e}`))
  return `${lines.join('\n')}\n`
}
