// Shrink to the same fault (issue 11, item 7): a shrink step is kept only when the smaller case
// breaks the same check of the same clause as the original failure. The property below breaks
// one check on large cases and another on small ones; unconstrained, fast-check's shrink slides
// from the first onto the second, constrained it stays on the original check — and the failure
// carries the original case's violation beside the shrunk one's.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import reference from '../reference-impl/adapters/reference.js'
import { checkProperty, type Failure } from '../harness/engine/check-property.js'
import { breaksSameCheck, checkOf, normaliseDetail } from '../harness/engine/check-identity.js'
import { custom } from '../harness/property/custom-property.js'
import { formatFailure } from '../harness/engine/format-failure.js'
import { toFile } from '../harness/store/counterexample.js'
import { assertValidReport } from '../harness/report/validate-report.js'

/** Large values break "too many tools" (the original fault); any value of 1 or more breaks "a tool is missing". */
const told = (n: number) => [`case ${n}`]
const sliding = custom('SCH-3', 'a property whose smaller cases break another check', fc.integer({ min: 0, max: 1000 }), told, async (ctx, n) => {
  if (n >= 300) ctx.fail(`schemas() listed ${n} tools, more than were registered`)
  else if (n >= 1) ctx.fail(`a registered tool is missing from schemas() (case ${n})`)
})

async function failureOf(seed: number, unconstrainedShrink: boolean): Promise<Failure> {
  const verdict = await checkProperty(sliding, reference, { runs: 100, seed, unconstrainedShrink })
  if (verdict.status !== 'failed') throw new Error(`seed ${seed}: ${verdict.status}`)
  return verdict.failure
}

describe('shrinking keeps the original check', () => {
  it('the check identity ignores the case\'s particulars and keeps the check apart', () => {
    expect(normaliseDetail('pre hooks entered [0,1], expected [0]')).toBe(normaliseDetail('pre hooks entered [2], expected [1,2]'))
    expect(checkOf({ clause: 'IN-4', detail: 'error code ABORTED, expected UNKNOWN_TOOL' })).toBe(checkOf(
      { clause: 'IN-4', detail: 'error code X_Y, expected INVALID_ARGUMENTS' },
    ))
    expect(checkOf(
      { clause: 'SCH-3', detail: 'schemas() listed 700 tools, more than were registered' },
    )).not.toBe(checkOf({ clause: 'SCH-3', detail: 'a registered tool is missing from schemas() (case 4)' }))
    expect(checkOf({ clause: 'META-1', detail: 'whatever', check: 'META-1:tagged' })).toBe('META-1:tagged')
    const named = { clause: 'IN-1', detail: 'the body that ran was lookup named lookup' }
    expect(breaksSameCheck(named, [{ clause: 'IN-1', detail: 'the body that ran was a named a' }]), 'a renamed tool is the same check').toBe(true)
    expect(breaksSameCheck(named, [{ clause: 'IN-1', detail: 'the body ran with arguments other than the snapshot taken at entry' }])).toBe(false)
    expect(breaksSameCheck(named, [{ clause: 'SCP-1', detail: 'the body that ran was lookup named lookup' }])).toBe(false)
  })

  it('unconstrained, the shrink slides onto another check; constrained, it stays on the original', async () => {
    // Seeds whose first failure is the large-case check (fast-check draws small values often, so not every seed).
    const slid: number[] = []
    for (let seed = 1; seed <= 40 && slid.length < 3; seed++) {
      const free = await failureOf(seed, true)
      if (free.check.includes('more than were registered') && !checkOf(free.violations[0]!).includes('more than were registered')) slid.push(seed)
    }
    expect(slid.length, 'some seed lets the unconstrained shrink slide').toBeGreaterThan(0)
    for (const seed of slid) {
      const free = await failureOf(seed, true)
      expect(free.violations[0]!.detail).toMatch(/missing/)
      expect(free.testCase).toBe(1)
      const kept = await failureOf(seed, false)
      expect(kept.violations[0]!.detail).toMatch(/more than were registered/)
      expect(kept.testCase, 'shrunk to the smallest case of the original check').toBe(300)
      expect(checkOf(kept.violations[0]!)).toBe(kept.check)
      expect(kept.original.violations[0]!.detail).toMatch(/more than were registered/)
      expect(kept.original.testCase as number).toBeGreaterThanOrEqual(300)
    }
  })

  it('the failure data and the terminal format show the original case beside the shrunk one', async () => {
    let failure: Failure | undefined
    for (let seed = 1; !failure || failure.original.testCase === failure.testCase; seed++) failure = await failureOf(seed, false)
    const file = toFile('SCH-3', sliding.title, 'reference', failure)
    expect(file.original?.case).toBe(failure.original.testCase)
    expect(file.original?.violations).toEqual(failure.original.violations)
    const text = formatFailure(sliding.title, failure, undefined)
    expect(text).toMatch(/original case violated: SCH-3/)
    expect(text).toMatch(/check kept while shrinking: SCH-3:/)
  })
})

describe('every report format shows the original case\'s violation beside the shrunk one\'s', () => {
  it('JSON (schema-valid), terminal, Markdown, JUnit and HTML', async () => {
    const { buildReport } = await import('../harness/report/build-report.js')
    const { toMarkdown } = await import('../harness/report/markdown.js')
    const { toJunit } = await import('../harness/report/junit.js')
    const { toHtml } = await import('../harness/report/html.js')
    const { formatMatrix } = await import('../harness/report/format-matrix.js')
    const report = buildReport({
      adapter: reference,
      seed: 1,
      runs: 100,
      durationMs: 1,
      properties: [sliding],
      results: [{ clause: 'SCH-3', level: 'R', profile: 'core', status: 'failed', title: sliding.title, numRuns: 3,
        violations: [{ clause: 'SCH-3', detail: 'schemas() listed 300 tools, more than were registered' }],
        originalViolations: [{ clause: 'SCH-3', detail: 'schemas() listed 873 tools, more than were registered' }] }],
      selected: [],
      unhandled: [],
      version: 'test',
    })
    assertValidReport(report)
    const clause = report.clauses.find((c) => c.id === 'SCH-3')!
    expect(clause.reason).toMatch(/listed 300 tools/)
    expect(clause.originalReason).toMatch(/listed 873 tools/)
    for (const text of [formatMatrix(report), toMarkdown(report), toJunit(report, new Map()), toHtml(report, new Map())]) {
      expect(text).toMatch(/listed 300 tools/)
      expect(text).toMatch(/listed 873 tools/)
    }
  })
})
