/** A Markdown summary fit for a pull-request comment; each failure's shrunk case told as a story, folded. */
import { clip } from '../safe/json-safe.js'
import type { CertifyReport } from './build-report.js'
import { replayCommand } from '../store/replay-command.js'
import { caseStory, looksLikeScenario } from './case-story.js'
import type { Counterexamples } from './counterexamples.js'

/** Text shown verbatim: fenced by more backticks than any run inside it. */
function fenced(lines: readonly string[]): string[] {
  const longest = Math.max(2, ...lines.map((line) => Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length))))
  const fence = '`'.repeat(longest + 1)
  return [`${fence}text`, ...lines, fence]
}

export function toMarkdown(report: CertifyReport, counterexamples: Counterexamples = new Map()): string {
  const s = report.summary
  const failed = report.clauses.filter((c) => c.status === 'failed' && c.baseline !== 'expected-failure')
  const expected = report.clauses.filter((c) => c.baseline === 'expected-failure')
  const stale = report.clauses.filter((c) => c.baseline === 'stale')
  const requiredApplicable = report.clauses.filter((c) => c.level === 'R' && c.status !== 'not-applicable')
  const requiredPassed = requiredApplicable.filter((c) => c.status === 'passed').length
  const clean = failed.length === 0 && stale.length === 0 && report.errors.length === 0
  const verdict = clean ? (expected.length > 0 ? 'conformant except known failures' : 'conformant') : 'not conformant'
  const lines = [
    `### toolreg: ${report.adapter.name}${report.adapter.version ? ` ${report.adapter.version}` : ''} — ${verdict}`,
    '',
    `**${requiredPassed}/${requiredApplicable.length}** required clauses pass · ` +
      `${s.passed} passed · ${s.failed} failed · ${s.untested} untested · ${s.notApplicable} not applicable`,
    `Profiles: ${report.adapter.profiles.join(', ')} · seed \`${report.seed}\` · ` +
      `${report.runs} runs per property · ${(report.durationMs / 1000).toFixed(1)} s`,
  ]
  if (failed.length > 0) {
    const cell = (text: string | undefined) => clip((text ?? '').replace(/\|/g, '\\|'), 400)
    lines.push('', '| clause | level | why (shrunk case) | why (original case) | replay |', '|---|---|---|---|---|')
    for (const c of failed) {
      const replay = c.counterexample ? `\`${replayCommand(c.counterexample)}\`` : ''
      lines.push(`| ${c.id} | ${c.level} | ${cell(c.reason)} | ${cell(c.originalReason ?? c.reason)} | ${replay} |`)
    }
  }
  for (const c of failed) {
    const ce = counterexamples.get(c.id)
    if (!ce) continue
    const story = caseStory(ce.case, ce.story, looksLikeScenario(ce.case))
    lines.push('', `<details><summary>${c.id}: what happened (the shrunk case)</summary>`, '', ...fenced(story), '', '</details>')
  }
  if (stale.length > 0) lines.push('', `**Stale baseline entries** (these pass now; remove them): ${stale.map((c) => c.id).join(', ')}`)
  if (expected.length > 0) lines.push('', `Known failures (baseline): ${expected.map((c) => `${c.id} — ${c.baselineReason ?? ''}`).join('; ')}`)
  if (report.errors.length > 0) lines.push('', '**Errors**', ...report.errors.map((e) => `- ${e}`))
  const seamless = report.clauses.filter((c) => c.status === 'not-applicable' && c.reason?.startsWith('not applicable (no '))
  if (seamless.length > 0) lines.push(
    '',
    `<details><summary>${seamless.length} not applicable: seams this tool layer does not have</summary>`,
    '',
    ...seamless.map((c) => `- ${c.id}: ${c.reason}`),
    '',
    '</details>',
  )
  const untested = report.clauses.filter((c) => c.status === 'untested')
  if (untested.length > 0) lines.push(
    '',
    `<details><summary>${untested.length} untested</summary>`,
    '',
    ...untested.map((c) => `- ${c.id}: ${c.reason ?? ''}`),
    '',
    '</details>',
  )
  return `${lines.join('\n')}\n`
}
