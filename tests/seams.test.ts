/** Seams: a clause whose seam an adapter lacks is not applicable, never passed; declarations are checked. */
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter, RegistryUnderTest } from '../harness/contract/adapter.js'
import { buildReport } from '../harness/report/build-report.js'
import { formatMatrix } from '../harness/report/format-matrix.js'
import { toMarkdown } from '../harness/report/markdown.js'
import { toJunit } from '../harness/report/junit.js'
import { toHtml } from '../harness/report/html.js'
import { assertValidReport } from '../harness/report/validate-report.js'
import { checkProperty } from '../harness/engine/check-property.js'
import { applicable } from '../harness/in-vitest/define-suite.js'
import { CLAUSE_SEAMS, restrictScenario, seamMismatches, SEAMS, type Seam } from '../harness/seams.js'
import type { Scenario } from '../harness/scenario/types.js'
import { CLAUSE_IDS } from '../harness/contract/clauses.js'
import { PROPERTIES } from '../suites/index.js'
import reference from '../reference-impl/adapters/reference.js'
import guardThrowPasses from '../fixtures/mutants/guard-throw-passes.js'

/** The reference has no per-tool setting of its own (decideTool): the harness installs those as a listener. */
const OWN_SETTINGS: readonly Seam[] = ['tool-decisions', 'tool-asks']
/** Every seam declared but `absent` and those the reference does not have. */
const without = (adapter: ConformanceAdapter, ...absent: Seam[]): ConformanceAdapter => ({
  ...adapter,
  seams: SEAMS.filter((s) => !absent.includes(s) && !OWN_SETTINGS.includes(s)),
})
const property = (id: string) => PROPERTIES.find((p) => p.id === id)!
const reportOf = (adapter: ConformanceAdapter) =>
  buildReport({ adapter, seed: 1, runs: 1, durationMs: 1, properties: PROPERTIES, results: [], selected: [], unhandled: [], version: 'test' })

describe('seams', () => {
  it('a waterfall implies a single decision; a single decision is not a waterfall', () => {
    const decisionOnly: ConformanceAdapter = { ...reference, seams: ['pre-decision'] }
    expect(applicable(property('PRE-2'), decisionOnly)).toBe(true)
    expect(applicable(property('PRE-1'), decisionOnly)).toBe(false)
    expect(applicable(property('PRE-2'), { ...reference, seams: ['pre-execute'] })).toBe(true)
  })

  it('names only known clauses and seams', () => {
    for (const [clause, seams] of Object.entries(CLAUSE_SEAMS)) {
      expect(CLAUSE_IDS).toContain(clause)
      for (const seam of seams.flat()) expect(SEAMS).toContain(seam)
    }
  })

  it('an adapter without a declaration has every seam: nothing changes for it', () => {
    expect(PROPERTIES.filter((p) => applicable(p, reference)).length).toBe(PROPERTIES.filter((p) => applicable(p, without(reference))).length)
    expect(reportOf(reference).clauses.some((c) => c.reason?.startsWith('not applicable (no '))).toBe(false)
  })

  it('a clause whose seam is absent is not applicable (no <seam> seam) in the report and every format', () => {
    const adapter = without(reference, 'guards')
    expect(applicable(property('GRD-1'), adapter)).toBe(false)
    const report = reportOf(adapter)
    assertValidReport(report)
    const grd = report.clauses.find((c) => c.id === 'GRD-1')!
    expect(grd.status).toBe('not-applicable')
    expect(grd.reason).toBe('not applicable (no guards seam)')
    expect(report.clauses.find((c) => c.id === 'APR-3')!.reason).toBe('not applicable (no guards seam)')
    expect(formatMatrix(report)).toContain('not applicable (no guards seam)')
    expect(toMarkdown(report)).toContain('GRD-1: not applicable (no guards seam)')
    expect(toJunit(report, new Map())).toContain('not-applicable: not applicable (no guards seam)')
    expect(toHtml(report, new Map())).toContain('not applicable (no guards seam)')
  })

  it('a faulty guard seam that is not declared yields not applicable, not a pass; other clauses are still judged', async () => {
    const adapter = without(guardThrowPasses, 'guards')
    expect(applicable(property('GRD-3'), adapter)).toBe(false)
    const faulty = await checkProperty(property('GRD-3'), guardThrowPasses, { runs: 100, seed: 3, shrink: false })
    expect(faulty.status).toBe('failed')
    const other = await checkProperty(property('OUT-3'), adapter, { runs: 30, seed: 3 })
    expect(other.status).toBe('passed')
  })

  it('cuts scenarios down to the declared seams', () => {
    const s: Scenario = {
      version: 1,
      config: { approval: { kind: 'throws' }, timeoutPolicy: true },
      tools: [{
        name: 't',
        description: 'd',
        parameters: {},
        outputSchema: {},
        classifier: { kind: 'absent' },
        body: { steps: [{ kind: 'conclude' }, { kind: 'await' }], outcome: { kind: 'until-aborted', value: 1 } },
        render: { kind: 'json-text' },
        finalize: { kind: 'throws' },
        timeoutMs: 5,
      }],
      pre: [{ timing: 'sync', decision: { kind: 'delegate' } }],
      guards: [{ verdict: { kind: 'throws' } }],
      wrappers: [{ timing: 'sync', action: { kind: 'pass' } }],
      post: [{ timing: 'sync', decision: { kind: 'delegate' } }],
      observers: [{ throws: true }],
      calls: [{ tool: 't', args: {}, abortScheduled: true }, { tool: 't', args: { n: { $: 'bigint' } } }, { tool: 't', args: {}, malformed: 'no-signal' }],
    }
    const cut = restrictScenario(s, new Set<Seam>(['error-conversion']))
    expect([cut.pre, cut.guards, cut.wrappers, cut.post, cut.observers]).toEqual([[], [], [], [], []])
    expect(cut.config).toEqual({})
    expect(cut.tools[0]).not.toHaveProperty('finalize')
    expect(cut.tools[0]).not.toHaveProperty('timeoutMs')
    expect(
      restrictScenario({ ...s, tools: [{ ...s.tools[0]!, render: { kind: 'throws' }, outputSchema: { type: 'string' } }] }, new Set<Seam>()).tools[0],
    ).toMatchObject({ render: { kind: 'json-text' }, outputSchema: {} })
    expect(cut.tools[0]!.body).toEqual({ steps: [{ kind: 'await' }], outcome: { kind: 'return', value: 1 } })
    expect(cut.calls).toEqual([{ tool: 't', args: {} }, { tool: 't', args: {} }])
    expect(restrictScenario(s, new Set(SEAMS))).toEqual(s)
    const two: Scenario = {
      ...s,
      pre: [{ scope: 'A', tamper: true, timing: 'await', decision: { kind: 'throws' } }, { timing: 'sync', decision: { kind: 'delegate' } }],
    }
    expect(restrictScenario(two, new Set<Seam>(['pre-decision'])).pre).toEqual([{ timing: 'await', decision: { kind: 'throws' } }])
    const coded: Scenario = { ...s, tools: [{ ...s.tools[0]!, body: { steps: [], outcome: { kind: 'throw', thrown: { $: 'error', code: 'E_TOOL' } } } }] }
    expect(restrictScenario(coded, new Set<Seam>(['error-conversion'])).tools[0]!.body.outcome).toEqual({ kind: 'throw', thrown: { $: 'error' } })
  })

  it('a declared seam whose method is missing: one line naming the adapter and the seam; its clauses error, others get verdicts', async () => {
    const adapter: ConformanceAdapter = {
      ...without(reference),
      name: 'no-post',
      async create(config) {
        const registry = await reference.create(config)
        const { onPostExecute: _dropped, ...rest } = registry
        return rest as RegistryUnderTest
      },
    }
    const problems = await seamMismatches(adapter)
    expect(problems).toEqual(['adapter no-post: declares the post-execute seam but its registry has no onPostExecute()'])
    const pst = await checkProperty(property('PST-1'), adapter, { runs: 5, seed: 1 })
    expect(pst).toEqual({ status: 'error', error: problems[0] })
    expect((await checkProperty(property('OUT-3'), adapter, { runs: 10, seed: 1 })).status).toBe('passed')
  })

  it('a declared seam whose method refuses a hook is named too (a peer registry stub that throws)', async () => {
    const { default: claimsPost } = await import('../fixtures/adapters/broken/seam-mismatch.js')
    const problems = await seamMismatches(claimsPost)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^adapter agents-claims-post-execute: declares the post-execute seam but its registry's onPostExecute\(\) throws: /)
    expect((await checkProperty(property('PST-1'), claimsPost, { runs: 3, seed: 1 })).status).toBe('error')
    expect((await checkProperty(property('OUT-3'), claimsPost, { runs: 3, seed: 1 })).status).toBe('passed')
  })

  it('a declared approval seam whose create never installs config.approval is named', async () => {
    const adapter: ConformanceAdapter = { ...without(reference), name: 'deaf', create: () => reference.create({}) }
    expect(await seamMismatches(adapter)).toEqual(['adapter deaf: declares the approval seam but create() never installs config.approval'])
    expect(await seamMismatches(without(reference))).toEqual([])
  })
})

/** The reference with a per-tool decision table of its own: `decideTool` consulted after every listener delegated. */
function withOwnTable(honoursAsk: boolean): ConformanceAdapter {
  return {
    ...reference,
    name: honoursAsk ? 'own-table' : 'own-table-ask-runs',
    seams: [...SEAMS],
    async create(config) {
      const registry = await reference.create(config)
      const table = new Map<string, unknown>()
      let installed = false
      const decideTool = (tool: string, decision: unknown) => {
        table.set(tool, decision)
        if (!installed) {
          installed = true
          registry.onPreExecute(async (exec, next) => {
            if (!table.has(exec.name)) return next()
            const decision = table.get(exec.name) as { kind?: unknown }
            return honoursAsk || decision?.kind !== 'ask' ? (decision as never) : { kind: 'allow' }
          })
        }
        return () => void table.delete(tool)
      }
      return { ...registry, decideTool }
    },
  }
}

describe('per-tool decisions (the tool-decisions seam)', () => {
  const s: Scenario = {
    version: 1, config: {}, guards: [], wrappers: [], post: [], observers: [],
    tools: [{
      name: 't', description: 'd', parameters: {}, outputSchema: {}, classifier: { kind: 'absent' }, render: { kind: 'json-text' },
      body: { steps: [], outcome: { kind: 'return', value: 1 } },
    }],
    pre: [],
    toolDecisions: [{ tool: 't', decision: { kind: 'ask' } }],
    calls: [{ tool: 't', args: {} }],
  }
  const listener: Scenario['pre'][number] = { timing: 'sync', decision: { kind: 'delegate' } }

  it('are kept with a waterfall; without one, only where no listener is kept; dropped with no decision seam', () => {
    expect(restrictScenario({ ...s, pre: [listener] }, new Set<Seam>(['pre-execute'])).toolDecisions).toEqual(s.toolDecisions)
    expect(restrictScenario(s, new Set<Seam>(['pre-decision'])).toolDecisions).toEqual(s.toolDecisions)
    expect(restrictScenario(s, new Set<Seam>(['tool-decisions'])).toolDecisions).toEqual(s.toolDecisions)
    expect(restrictScenario({ ...s, pre: [listener] }, new Set<Seam>(['pre-decision', 'tool-decisions'])).toolDecisions).toBeUndefined()
    expect(restrictScenario(s, new Set<Seam>(['guards'])).toolDecisions).toBeUndefined()
    // An approval requirement alone holds an ask and odd values, never a deny.
    const mixed: Scenario = { ...s, toolDecisions: [{ tool: 't', decision: { kind: 'deny', reason: 'r' } }, { tool: 'u', decision: 0 }] }
    expect(restrictScenario(mixed, new Set<Seam>(['tool-asks'])).toolDecisions).toEqual([{ tool: 'u', decision: 0 }])
    expect(restrictScenario(mixed, new Set<Seam>(['tool-decisions'])).toolDecisions).toEqual(mixed.toolDecisions)
  })

  it('an approval requirement alone makes PRE-3 and PRE-5 applicable, not PRE-2 or PRE-4', () => {
    const asksOnly: ConformanceAdapter = { ...reference, seams: ['tool-asks'] }
    expect(['PRE-2', 'PRE-3', 'PRE-4', 'PRE-5'].map((id) => applicable(property(id), asksOnly))).toEqual([false, true, false, true])
  })

  it('a registry\'s own table is judged as the emulated listener is: the same verdicts, and an ignored ask fails', async () => {
    for (const id of ['PRE-5', 'APR-2']) {
      expect((await checkProperty(property(id), withOwnTable(true), { runs: 40, seed: 3 })).status, id).toBe('passed')
    }
    const verdict = await checkProperty(property('PRE-5'), withOwnTable(false), { runs: 40, seed: 3 })
    expect(verdict.status).toBe('failed')
    expect((verdict as { failure: { testCase: Scenario } }).failure.testCase.toolDecisions).toHaveLength(1)
  })

  it('a declared tool-decisions seam whose registry has no decideTool is named', async () => {
    expect(await seamMismatches({ ...reference, name: 'no-table', seams: ['tool-decisions'] })).toEqual([
      'adapter no-table: declares the tool-decisions seam but its registry has no decideTool()',
    ])
  })
})
