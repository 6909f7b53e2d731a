/** JUnit XML: one testcase per clause, grouped by family; failures carry the shrunk case, told as a story. */
import type { CertifyReport } from './build-report.js'
import { caseStory, looksLikeScenario } from './case-story.js'
import type { Counterexamples } from './counterexamples.js'
import { replayCommand } from '../store/replay-command.js'

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

export function toJunit(report: CertifyReport, counterexamples: Counterexamples): string {
  const families = new Map<string, CertifyReport['clauses']>()
  for (const c of report.clauses) {
    const family = c.id.split('-')[0]!
    families.set(family, [...(families.get(family) ?? []), c])
  }
  const suites = [...families].map(([family, clauses]) => {
    const failures = clauses.filter((c) => c.status === 'failed').length
    const skipped = clauses.filter((c) => c.status === 'untested' || c.status === 'not-applicable').length
    const cases = clauses.map((c) => {
      const name = `${c.id} [${c.level}${c.profile === 'core' ? '' : `, ${c.profile}`}]`
      const open = `    <testcase classname="toolreg.${family}" name="${escape(name)}">`
      if (c.baseline === 'stale') {
        const why = escape(`${c.id} passes now; remove it from the baseline (${c.baselineReason ?? ''})`)
        return `${open}\n      <failure message="stale baseline entry" type="baseline">${why}</failure>\n    </testcase>`
      }
      if (c.baseline === 'expected-failure') return `${open}<skipped message="${escape(`expected failure (baseline): ${c.baselineReason ?? ''}`)}"/></testcase>`
      if (c.status === 'passed') return `${open}</testcase>`
      if (c.status !== 'failed') return `${open}<skipped message="${escape(`${c.status}: ${c.reason ?? ''}`)}"/></testcase>`
      const ce = counterexamples.get(c.id)
      const body = [
        c.reason ?? '',
        c.originalReason ? `original case (before shrinking): ${c.originalReason}` : '',
        ce ? `seed ${ce.seed}, path ${ce.path}` : '',
        ce ? ['what happened (the shrunk case):', ...caseStory(ce.case, ce.story, looksLikeScenario(ce.case)).map((line) => `  ${line}`)].join('\n') : '',
        c.counterexample ? `replay: ${replayCommand(c.counterexample)}` : '',
      ]
        .filter(Boolean)
        .join('\n')
      const type = c.level === 'R' ? 'required' : 'recommended'
      return `${open}\n      <failure message="${escape(c.reason ?? 'failed')}" type="${type}">${escape(body)}</failure>\n    </testcase>`
    })
    return `  <testsuite name="toolreg ${family}" tests="${clauses.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`
  })
  const s = report.summary
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="toolreg certify ${escape(report.adapter.name)}" tests="${report.clauses.length}" failures="${s.failed}" ` +
    `skipped="${s.untested + s.notApplicable}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
  )
}
