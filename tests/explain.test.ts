// A failure explained for a person: the shrunk scenario as a story, the trace as a timeline with
// the violating step marked, the same in `certify` and `replay`. Asserted on structure (which
// line is marked, which stage it names), not on wording.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { explainFailures } from '../harness/cli/explain-failures.js'
import { replay } from '../harness/cli/replay.js'
import type { CertifyReport } from '../harness/report/build-report.js'
import { scenarioStory } from '../harness/scenario/story.js'
import { timeline } from '../harness/report/timeline.js'
import { checkProperty } from '../harness/engine/check-property.js'
import { toFile, writeCounterexample } from '../harness/store/counterexample.js'
import type { Trace } from '../harness/scenario/trace.js'
import { emptyScenario, type Scenario } from '../harness/scenario/types.js'
import mutant from '../fixtures/mutants/fin-twice-on-abort.js'
import { PROPERTIES } from '../suites/index.js'

const MUTANT = 'fixtures/mutants/fin-twice-on-abort.ts'

const scenario: Scenario = {
  ...emptyScenario(),
  tools: [
    {
      name: 'search',
      description: 'd',
      parameters: { type: 'object' },
      outputSchema: { type: 'object' },
      classifier: { kind: 'returns', value: { $: 'promise', value: true } },
      body: { steps: [{ kind: 'await' }], outcome: { kind: 'return', value: { n: { $: 'bigint' } } } },
      render: { kind: 'json-text' },
      finalize: { kind: 'keep' },
    },
  ],
  pre: [{ timing: 'await', decision: { kind: 'delegate-twice' } }],
  observers: [{ throws: true }],
  calls: [{ tool: 'search', args: {}, agent: 'A' }],
}

const enter = (stage: 'pre' | 'body' | 'finalize' | 'observer') =>
  ({ ev: 'enter', stage, call: 'c0', index: 0, token: 1, execFrozen: true }) as const

const trace: Trace = {
  events: [enter('pre'), enter('body'), enter('finalize'), enter('observer'), { ev: 'settled', call: 'c0' }],
  calls: [{ callId: 'c0', observed: [] }],
}

describe('the story of a scenario', () => {
  it('tells one line per tool, the approval service, each hook and each call, with tagged values shown by tag', () => {
    const lines = scenarioStory(scenario)
    expect(lines).toHaveLength(1 + 1 + 1 + 1 + 1)
    expect(lines[0]).toMatch(/^tool search:/)
    expect(lines[0]).toContain('‹promise›(true)')
    expect(lines[0]).toContain('‹bigint›')
    expect(lines.at(-1)).toMatch(/^call c0: search\(\{\}\)/)
  })
})

describe('the timeline of a trace', () => {
  it('marks the first step of the violating call in the stage its clause governs', () => {
    const steps = timeline(trace, [{ clause: 'FIN-2', call: 'c0', detail: 'x' }])
    expect(steps.filter((s) => s.marks.length > 0).map((s) => s.index)).toEqual([3])
  })

  it('marks the settle when the governed stage never ran', () => {
    const steps = timeline(trace, [{ clause: 'PST-1', call: 'c0', detail: 'x' }])
    expect(steps.filter((s) => s.marks.length > 0).map((s) => s.index)).toEqual([5])
  })
})

describe('certify and replay explain a failure the same way', () => {
  afterEach(() => vi.restoreAllMocks())

  it('FIN-2 on a mutant: the story and the marked finalize step, in both', async () => {
    const property = PROPERTIES.find((p) => p.id === 'FIN-2')!
    const verdict = await checkProperty(property, mutant, { runs: 100, seed: 7 })
    expect(verdict.status).toBe('failed')
    if (verdict.status !== 'failed') return
    const dir = await mkdtemp(join(tmpdir(), 'toolreg-explain-'))
    const found = toFile('FIN-2', property.title, mutant.name, verdict.failure)
    const file = await writeCounterexample(dir, found)
    const report = { clauses: [{ id: 'FIN-2', status: 'failed', counterexample: file }] } as unknown as CertifyReport
    const [certified] = explainFailures(report, new Map([['FIN-2', found]]), new Set(['FIN-2']))
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')))
    expect(await replay(file, { adapter: MUTANT })).toBe(1)
    const replayed = printed.join('\n')
    for (const text of [certified!, replayed]) {
      expect(text).toMatch(/^ {4}call c0: /m)
      expect(text).toMatch(/^ {4}tool \S+( \(agent \w\))?: /m)
      expect(text).toMatch(/^ {4}▶ +\d+ {2}c0 {2}enter finalize #0\b.*◀ FIN-2/m)
    }
  })
})
