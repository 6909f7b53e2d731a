// Every failing case is told as a story — custom properties and the direct cases of a clause too —
// and the detail that decides a failure is never the part cut off. Asserted on structure (which
// section holds which lines, what text may not appear), not on wording.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { explainFailures } from '../harness/cli/explain-failures.js'
import { replay } from '../harness/cli/replay.js'
import { judgeClause } from '../harness/engine/judge-clause.js'
import { checkProperty } from '../harness/engine/check-property.js'
import { storyOf } from '../harness/property/property.js'
import { SCENARIO_PROPERTIES } from '../harness/property/scenario-property.js'
import type { CertifyReport } from '../harness/report/build-report.js'
import { explainFailure } from '../harness/report/explain.js'
import { toHtml } from '../harness/report/html.js'
import { toJunit } from '../harness/report/junit.js'
import { toMarkdown } from '../harness/report/markdown.js'
import { clip } from '../harness/safe/json-safe.js'
import { show } from '../harness/safe/safe-read.js'
import { showValue } from '../harness/scenario/story.js'
import type { ValueDesc } from '../harness/scenario/types.js'
import { toFile, writeCounterexample, type CounterexampleFile } from '../harness/store/counterexample.js'
import batchUnbounded from '../fixtures/mutants/batch-unbounded-pool.js'
import dropsSyncCode from '../fixtures/mutants/out-sync-throw-drops-code.js'
import { PROPERTIES } from '../suites/index.js'

const RAW_OBJECT = '{"'

const isDirect = (c: unknown) => typeof c === 'object' && c !== null && 'direct' in c && !('version' in c)

/** The lines under "what happened:", up to the next section. */
function whatHappened(text: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line === '  what happened:')
  expect(start).toBeGreaterThanOrEqual(0)
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => !line.startsWith('    '))
  return end < 0 ? rest : rest.slice(0, end)
}

describe('every property tells its cases', () => {
  const custom = PROPERTIES.filter((p) => !SCENARIO_PROPERTIES.has(p))
  const joined = PROPERTIES.filter((p) => SCENARIO_PROPERTIES.has(p) && fc.sample(p.arbitrary, { numRuns: 60, seed: 3 }).some(isDirect))

  it('the suites hold custom properties and clauses with direct cases to tell', () => {
    expect(custom.length).toBeGreaterThan(10)
    expect(joined.map((p) => p.id).sort()).toEqual(
      ['APR-1', 'CAN-1', 'CAN-3', 'CAN-4', 'CODE-1', 'CODE-5', 'EXE-1', 'EXE-2', 'EXE-4', 'GRD-1', 'IN-1', 'META-2', 'MODE-2', 'OUT-1', 'OUT-2', 'OUT-4',
        'PRE-1', 'PRE-2', 'PRE-3', 'PRE-4', 'PRE-6', 'PRE-7', 'PST-3', 'RES-1', 'SCP-1'],
    )
  })

  it.each(custom.map((p) => [p.id, p] as const))('%s: a story for every sampled case, in words, not raw JSON', (_id, property) => {
    for (const testCase of fc.sample(property.arbitrary, { numRuns: 15, seed: 11 })) {
      const lines = storyOf(property, testCase)
      expect(lines?.length).toBeGreaterThan(0)
      expect(lines!.filter((line) => line.includes(RAW_OBJECT) || line.trim() === '')).toEqual([])
    }
  })

  it.each(joined.map((p) => [p.id, p] as const))('%s: its direct cases are told too, in words', (_id, property) => {
    const direct = fc.sample(property.arbitrary, { numRuns: 60, seed: 5 }).filter(isDirect)
    expect(direct.length).toBeGreaterThan(0)
    for (const testCase of direct) {
      const lines = storyOf(property, testCase)
      expect(lines?.length).toBeGreaterThan(1)
      expect(lines!.filter((line) => line.includes(RAW_OBJECT))).toEqual([])
    }
  })

  it('a story that throws is no story, never a changed verdict', () => {
    expect(storyOf({ story: () => { throw new Error('a bug in a story') } }, 1)).toBeUndefined()
  })
})

describe('the decisive detail is never cut off', () => {
  const decisive: ValueDesc = { note: 'n'.repeat(80), tag: { $: 'bigint' } }

  it('a value with a tag past 60 characters is shown whole', () => {
    const shown = showValue(decisive)
    expect(shown).toContain('‹bigint›')
    expect(shown).toContain('n'.repeat(80))
    expect(shown).not.toContain(RAW_OBJECT)
  })

  it('past the bound, long strings shrink in the middle; every key and tag stays', () => {
    const huge: ValueDesc = { head: 'h'.repeat(5000), list: ['x'.repeat(3000), { $: 'cycle' }], tail: { $: 'error', code: 'E_LAST' } }
    const shown = showValue(huge)
    expect(shown.length).toBeLessThan(1200)
    for (const kept of ['head:', 'list:', 'tail:', '‹cycle›', '‹error›(E_LAST)']) expect(shown).toContain(kept)
    expect(shown).toMatch(/"h+… \[\d+ characters cut\] …h+"/)
  })

  it('a long message keeps its end, and a violation detail keeps the key after a long string', () => {
    expect(clip(`${'a'.repeat(5000)}DECISIVE`, 100)).toMatch(/DECISIVE$/)
    const detail = show({ content: 'c'.repeat(2000), code: 'INVALID_TOOL_OUTPUT' })
    expect(detail).toContain('"code":"INVALID_TOOL_OUTPUT"')
    expect(detail).toContain('"content":"c')
    expect(detail.length).toBeLessThanOrEqual(300)
  })
})

describe('a custom clause explained', () => {
  afterEach(() => vi.restoreAllMocks())

  it('MODE-3 under certify: the counterexample carries its story, and "what happened" has no raw JSON', async () => {
    const property = PROPERTIES.find((p) => p.id === 'MODE-3')!
    const verdict = await judgeClause(property, batchUnbounded, { runs: 100, seed: 7 })
    expect(verdict.status).toBe('failed')
    const ce = verdict.counterexample!
    expect(ce.story?.length).toBeGreaterThan(1)
    const report = { clauses: [{ id: 'MODE-3', status: 'failed', counterexample: 'mode-3.json' }] } as unknown as CertifyReport
    const [text] = explainFailures(report, new Map([['MODE-3', ce]]), new Set())
    const told = whatHappened(text!)
    expect(told).toEqual(ce.story!.map((line) => `    ${line}`))
    expect(told.filter((line) => line.includes(RAW_OBJECT))).toEqual([])
  })

  it('a counterexample saved without a story is still told in words', () => {
    const text = explainFailure({
      clause: 'MODE-3',
      violations: [{ clause: 'MODE-3', detail: 'x' }],
      testCase: { calls: [{ safe: false, awaits: 1 }], maxParallel: 1, withSignal: false },
      isScenario: false,
    })
    const told = whatHappened(text)
    expect(told.length).toBe(3)
    expect(told.filter((line) => line.includes(RAW_OBJECT))).toEqual([])
  })

  it('OUT-4 direct case under replay: told afresh by the property, in words', async () => {
    const property = PROPERTIES.find((p) => p.id === 'OUT-4')!
    let file: string | undefined
    for (let seed = 1; seed <= 50 && !file; seed++) {
      const verdict = await checkProperty(property, dropsSyncCode, { runs: 100, seed })
      if (verdict.status === 'failed' && isDirect(verdict.failure.testCase)) {
        const dir = await mkdtemp(join(tmpdir(), 'toolreg-stories-'))
        file = await writeCounterexample(dir, toFile('OUT-4', property.title, dropsSyncCode.name, verdict.failure))
      }
    }
    expect(file).toBeDefined()
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')))
    expect(await replay(file!, { adapter: 'fixtures/mutants/out-sync-throw-drops-code.ts' })).toBe(1)
    const told = whatHappened(printed.join('\n'))
    expect(told.length).toBeGreaterThan(1)
    expect(told.filter((line) => line.includes(RAW_OBJECT))).toEqual([])
  })
})

describe('the reports show the story where they show the case', () => {
  const story = ['a batch of 2 call(s), maxParallel 1, without a signal', 'call b0: an exclusive body that awaits once']
  const ce: CounterexampleFile = {
    toolreg: 'counterexample', version: 1, clause: 'MODE-3', property: 'MODE-3 …', adapter: 'mutant', seed: 1, path: '0',
    case: { calls: [{ safe: false, awaits: 1 }], maxParallel: 1, withSignal: false }, story, schedule: [], violations: [],
  }
  const report = {
    adapter: { name: 'mutant', profiles: ['core', 'batch'] }, toolreg: '0', seed: 1, runs: 100, durationMs: 1, errors: [],
    summary: { passed: 0, failed: 1, untested: 0, notApplicable: 0 },
    clauses: [{ id: 'MODE-3', level: 'R', profile: 'batch', status: 'failed', reason: 'MODE-3: overlap', counterexample: 'm.json' }],
  } as unknown as CertifyReport
  const counterexamples = new Map([['MODE-3', ce]])

  it.each([
    ['JUnit', () => toJunit(report, counterexamples)],
    ['Markdown', () => toMarkdown(report, counterexamples)],
  ])('%s: the story lines, and not the case as raw JSON', (_format, render) => {
    const text = render()
    for (const line of story) expect(text).toContain(line)
    expect(text).not.toMatch(/maxParallel&quot;|"maxParallel"/)
  })

  it('HTML: the story under "What happened", the raw JSON only behind its toggle', () => {
    const html = toHtml(report, counterexamples)
    const storyList = /<ul class="story" data-testid="story">(.*?)<\/ul>/.exec(html)?.[1] ?? ''
    expect(storyList.match(/<li>/g)?.length).toBe(story.length)
    expect(storyList).not.toContain('&quot;maxParallel')
  })
})
