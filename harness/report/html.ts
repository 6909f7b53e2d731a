/**
 * One self-contained HTML file (no network). It opens on the failures — each with its minimal
 * case told as a story (case-story.ts), a timeline of its trace (stages as lanes, time as order)
 * with the violating step marked, and the raw JSON behind a toggle — then the clause matrix,
 * filterable by status and text (showing the failed clauses first when there are any).
 */
import type { Violation } from '../oracle/judge.js'
import type { Trace, TraceEvent } from '../scenario/trace.js'
import type { CertifyReport } from './build-report.js'
import type { Counterexamples } from './counterexamples.js'
import type { CounterexampleFile } from '../store/counterexample.js'
import { caseStory, looksLikeScenario } from './case-story.js'
import { timeline as markedTimeline } from './timeline.js'
import { replayCommand } from '../store/replay-command.js'

const LANES = ['pre', 'approval', 'guard', 'wrapper', 'body', 'post', 'finalize', 'observer', 'caller'] as const

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

interface Bar {
  lane: (typeof LANES)[number]
  from: number
  to: number
  label: string
}

/** Turns trace events into bars: enter…leave spans, and point events for aborts and settling. */
export function timelineBars(trace: Trace): Bar[] {
  const bars: Bar[] = []
  const open = new Map<string, number>()
  trace.events.forEach((e: TraceEvent, i) => {
    if (e.ev === 'enter') open.set(`${e.stage}|${e.index}|${e.call}`, i)
    else if (e.ev === 'leave') {
      const key = `${e.stage}|${e.index}|${e.call}`
      const from = open.get(key) ?? i
      open.delete(key)
      bars.push({ lane: e.stage, from, to: i, label: `${e.stage}#${e.index} ${e.call}` })
    } else if (e.ev === 'approval-request') bars.push({ lane: 'approval', from: i, to: i, label: `approval ${e.call}` })
    else if (e.ev === 'abort') bars.push({ lane: 'caller', from: i, to: i, label: `abort ${e.call}` })
    else if (e.ev === 'settled') bars.push({ lane: 'caller', from: i, to: i, label: `settled ${e.call}` })
  })
  for (const [key, from] of open) {
    const [stage, index, call] = key.split('|') as [Bar['lane'], string, string]
    bars.push({ lane: stage, from, to: trace.events.length, label: `${stage}#${index} ${call} (never left)` })
  }
  return bars
}

function timeline(trace: Trace, violations: readonly Violation[]): string {
  const marked = new Set(markedTimeline(trace, violations).filter((step) => step.marks.length > 0).map((step) => step.index - 1))
  const bars = timelineBars(trace)
  const columns = Math.max(trace.events.length, 1) + 1
  const cells = bars
    .map((b) => {
      const row = LANES.indexOf(b.lane) + 2
      const kind = b.lane === 'caller' ? (b.label.startsWith('abort') ? 'point abort' : 'point settled') : 'bar'
      const cls = marked.has(b.from) ? `${kind} marked` : kind
      const testid = marked.has(b.from) ? ' data-testid="marked-step"' : ''
      return `<div class="${cls}"${testid} style="grid-row:${row};grid-column:${b.from + 2} / ${b.to + 3}" title="${esc(b.label)}">${esc(b.label)}</div>`
    })
    .join('')
  const labels = LANES.map((lane, i) => `<div class="lane" style="grid-row:${i + 2};grid-column:1">${lane}</div>`).join('')
  return `<div class="timeline" data-testid="timeline" style="grid-template-columns:7rem repeat(${columns}, minmax(2.2rem, 1fr))">${labels}${cells}</div>`
}

/** The shrunk case as a short story: the one saved with it, a scenario's, or the case in words. */
function story(ce: CounterexampleFile): string {
  const lines = caseStory(ce.case, ce.story, looksLikeScenario(ce.case))
  return `<h4>What happened</h4><ul class="story" data-testid="story">${lines.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`
}

/** One line of the page's stylesheet: the timeline's lanes and bars. */
const LANE_AND_BAR_CSS =
  '.lane{font-weight:600;color:#555}' +
  '.bar{background:#cfe3ff;border:1px solid #6b9be0;border-radius:3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding:0 2px}'

const FILTER_BUTTONS =
  '<button data-filter="all">all</button><button data-filter="failed">failed</button><button data-filter="passed">passed</button>' +
  '<button data-filter="untested">untested</button><button data-filter="not-applicable">not applicable</button>'

/** The page script's filter: a row shows when it has the chosen status and contains the search text. */
const APPLY_FILTER =
  "const apply = () => rows.forEach((r) => { r.hidden = (status !== 'all' && r.dataset.status !== status) || " +
  "(text !== '' && !r.textContent.toLowerCase().includes(text)) })"

const violation = (v: Violation) => `<li><b>${esc(v.clause)}</b>${v.call ? ` (${esc(v.call)})` : ''}: ${esc(v.detail)}</li>`

export function toHtml(report: CertifyReport, counterexamples: Counterexamples): string {
  const rows = report.clauses
    .map(
      (c) =>
        `<tr class="${c.status}" data-status="${c.status}" data-id="${c.id}">` +
        `<td>${c.id}</td><td>${c.level}</td><td>${c.profile}</td><td class="status">${c.status}</td><td>${esc(c.reason ?? '')}</td></tr>`,
    )
    .join('\n')
  const failures = report.clauses
    .filter((c) => c.status === 'failed')
    .map((c) => {
      const ce = counterexamples.get(c.id)
      const trace = ce?.trace as Trace | undefined
      const replay = ce
        ? `<p>seed <code>${ce.seed}</code>, path <code>${esc(ce.path)}</code>, schedule <code>[${ce.schedule.join(', ')}]</code> — ` +
          `replay: <code>${esc(c.counterexample ? replayCommand(c.counterexample) : '')}</code></p>`
        : `<p>counterexample: <code>${esc(c.counterexample ?? 'not saved')}</code></p>`
      return `<section class="failure" id="failure-${c.id}" data-testid="failure">
  <h3>${c.id} <small>${esc(c.reason ?? '')}</small></h3>
  ${c.originalReason ? `<p data-testid="original-reason">original case, before shrinking: ${esc(c.originalReason)}</p>` : ''}
  ${replay}
  ${ce ? story(ce) : ''}
  ${ce ? `<ul class="violations">${ce.violations.map(violation).join('')}</ul>` : ''}
  ${trace ? `<h4>Timeline <small>(the marked step is where the violation shows)</small></h4>${timeline(trace, ce?.violations ?? [])}` : ''}
  ${ce ? `<details data-testid="raw"><summary>Raw JSON of the minimal case</summary><pre>${esc(JSON.stringify(ce.case, null, 2))}</pre></details>` : ''}
</section>`
    })
    .join('\n')
  const s = report.summary
  const summary =
    `${s.passed} passed · ${s.failed} failed · ${s.untested} untested · ${s.notApplicable} not applicable — ` +
    `profiles ${esc(report.adapter.profiles.join(', '))}, seed ${report.seed}, ${report.runs} runs per property, toolreg ${esc(report.toolreg)}`
  const cov = report.coverage
  const coverage = cov
    ? `<p data-testid="coverage">Coverage of the implementation: ${cov.lines}% lines · ${cov.statements}% statements · ` +
      `${cov.functions}% functions · ${cov.branches}% branches (full report under reports/coverage/)</p>`
    : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>toolreg — ${esc(report.adapter.name)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1f24}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
tr.failed .status{color:#b00020;font-weight:600}tr.passed .status{color:#137333}tr.untested .status,tr.not-applicable .status{color:#777}
.filters button{margin-right:.4rem}.filters button.on{font-weight:700}
.timeline{display:grid;gap:2px;margin:.5rem 0;overflow-x:auto;font-size:11px}
${LANE_AND_BAR_CSS}
.marked{outline:3px solid #b00020;font-weight:700}.story li,.violations li{margin:.1rem 0}
.point{border-radius:3px;padding:0 2px;white-space:nowrap}.abort{background:#ffd7d7;border:1px solid #d33}.settled{background:#d8f5d8;border:1px solid #393}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;max-height:30rem}
</style></head>
<body>
<h1>toolreg: ${esc(report.adapter.name)}${report.adapter.version ? ` ${esc(report.adapter.version)}` : ''}</h1>
<p>${summary}</p>
${coverage}
${report.errors.length > 0 ? `<ul class="errors">${report.errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
${failures ? `<h2>Failures</h2>\n${failures}` : ''}
<h2>Clause matrix</h2>
<div class="filters">
  ${FILTER_BUTTONS}
  <input type="search" placeholder="clause ID or text" aria-label="filter clauses">
</div>
<table data-testid="matrix"><thead><tr><th>clause</th><th>level</th><th>profile</th><th>status</th><th>reason</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<script>
(() => {
  let status = document.querySelector('[data-testid="failure"]') ? 'failed' : 'all', text = ''
  const rows = [...document.querySelectorAll('tbody tr')]
  ${APPLY_FILTER}
  document.querySelectorAll('.filters button').forEach((b) => b.addEventListener('click', () => {
    status = b.dataset.filter
    document.querySelectorAll('.filters button').forEach((x) => x.classList.toggle('on', x === b))
    apply()
  }))
  document.querySelector('.filters input').addEventListener('input', (e) => { text = e.target.value.toLowerCase(); apply() })
  document.querySelectorAll('.filters button').forEach((x) => x.classList.toggle('on', x.dataset.filter === status))
  apply()
})()
</script>
</body></html>
`
}
