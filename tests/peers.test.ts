/**
 * The shipped peer adapters, at reduced depth: each is wired (smoke) and certifies a few clauses;
 * each fault the generated cases find at a faulty version is absent at the fixed one. No case here
 * is written for one bug: every case comes from a clause's own generator, and the symptom asserted
 * is a shape of the trace (no result, a rejected execute, a rejection after a failed body, a body
 * whose signal never aborted).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import { smoke } from '../harness/cli/smoke.js'
import { checkProperty, type Failure } from '../harness/engine/check-property.js'
import { restrictScenario, seamMismatches, seamsOf } from '../harness/seams.js'
import { runScenario } from '../harness/scenario/interpret.js'
import type { Scenario, ToolSpec } from '../harness/scenario/types.js'
import type { Trace } from '../harness/scenario/trace.js'
import { PROPERTIES } from '../suites/index.js'
import { PEERS } from '../reference-impl/adapters/peers/index.js'
import { gateLine, peerMatrix, type PeerRun } from '../harness/cli/peers.js'
import { buildReport } from '../harness/report/build-report.js'
import { agentsAdapter } from '../reference-impl/adapters/peers/openai-agents/adapter.js'
import ai18 from '../reference-impl/adapters/peers/ai-sdk/7.0.18.js'
import ai19 from '../reference-impl/adapters/peers/ai-sdk/7.0.19.js'
import agents135 from '../reference-impl/adapters/peers/openai-agents/0.13.5.js'
import agents140 from '../reference-impl/adapters/peers/openai-agents/0.14.0.js'
import agentsLatest from '../reference-impl/adapters/peers/openai-agents/latest.js'
import langgraph from '../reference-impl/adapters/peers/langgraph/latest.js'
import mcp1 from '../reference-impl/adapters/peers/mcp/1.32.2.js'
import mcp2 from '../reference-impl/adapters/peers/mcp/2.0.0-beta.1.js'
import aiLatest from '../reference-impl/adapters/peers/ai-sdk/latest.js'
import mastra104 from '../reference-impl/adapters/peers/mastra/1.0.4.js'
import mastraLatest from '../reference-impl/adapters/peers/mastra/latest.js'
import { isLosslessDesc } from '../harness/scenario/read-desc.js'

const property = (id: string) => PROPERTIES.find((p) => p.id === id)!
const load = async (module: string) => ((await import(`../${module}`)) as { default: ConformanceAdapter }).default

/** The clause's own generated cases, cut to the adapter's seams, with the trace of each run. */
async function traces(adapter: ConformanceAdapter, clause: string, runs: number, seed: number): Promise<{ scenario: Scenario; trace: Trace }[]> {
  const seams = seamsOf(adapter)
  const cases = fc.sample(property(clause).arbitrary as fc.Arbitrary<Scenario>, { numRuns: runs, seed }).filter((c) => 'version' in c)
  const out: { scenario: Scenario; trace: Trace }[] = []
  for (const raw of cases) {
    const scenario = restrictScenario(raw, seams)
    out.push({ scenario, trace: await runScenario(adapter, scenario, { budgetMs: 1000 }) })
  }
  return out
}

const failed = (verdict: Awaited<ReturnType<typeof checkProperty>>): Failure => {
  expect(verdict.status).toBe('failed')
  return (verdict as { failure: Failure }).failure
}

/** The reason an exact ask carries, if any (a listener's decision or a per-tool one). */
function reasonOf(decision: unknown): string[] {
  const value = (decision as { kind?: unknown; value?: unknown })?.kind === 'returns' ? (decision as { value: unknown }).value : decision
  const ask = value as { kind?: unknown; reason?: unknown } | null
  return ask?.kind === 'ask' && typeof ask.reason === 'string' ? [ask.reason] : []
}

/** A call of the trace that execute resolved without any outcome object. */
const noResult = (trace: Trace | undefined) => (trace?.calls ?? []).some((c) => c.rejected === undefined && (c.result === undefined || c.result === null))
const rejected = (trace: Trace | undefined) => (trace?.calls ?? []).some((c) => c.rejected !== undefined)
/** A call whose body ran and failed, after which execute rejected instead of resolving with an error. */
const rejectedAfterFailedBody = ({ scenario, trace }: { scenario: Scenario; trace: Trace }) =>
  trace.calls.some((c, i) => {
    const failing = ['throw', 'reject'].includes(scenario.tools.find((t) => t.name === scenario.calls[i]?.tool)?.body.outcome.kind ?? '')
    return c.rejected !== undefined && failing && trace.events.some((e) => e.ev === 'enter' && e.stage === 'body' && e.call === `c${i}`)
  })

describe('peer adapters', () => {
  it('every shipped peer is wired: smoke passes and its seam declaration matches', async () => {
    for (const peer of PEERS) {
      const adapter = await load(peer.module)
      expect(await smoke(peer.module), peer.module).toBe(0)
      expect(await seamMismatches(adapter)).toEqual([])
    }
  })

  it('certifies a handful of clauses at reduced depth; absent seams are not applicable', async () => {
    for (const adapter of [ai19, agents140, langgraph]) {
      expect((await checkProperty(property('RES-3'), adapter, { runs: 15, seed: 1 })).status, adapter.name).toBe('passed')
    }
    expect((await checkProperty(property('OUT-3'), agents140, { runs: 15, seed: 1 })).status).toBe('passed')
    expect((await checkProperty(property('GRD-3'), agents140, { runs: 15, seed: 1 })).status).toBe('passed')
  })
})

describe('the peer matrix', () => {
  it('shows passed, failed with its counterexample, and not applicable with the missing seam', () => {
    const report = buildReport({
      adapter: agents140, seed: 1, runs: 1, durationMs: 1, properties: PROPERTIES, selected: [], unhandled: [], version: 'test',
      results: [
        { clause: 'GRD-1', status: 'failed', counterexampleFile: 'reports/peers/x/GRD-1-seed1.json' } as never,
        { clause: 'GRD-3', status: 'passed', numRuns: 1 } as never,
      ],
    })
    const run: PeerRun = { peer: PEERS.find((p) => p.library === 'openai-agents')!, report, exitCode: 1, ms: 1 }
    const rows = peerMatrix([run], { runs: 1, seed: 1 }).split('\n')
    expect(rows.find((r) => r.startsWith('| GRD-1 |'))).toBe('| GRD-1 | [**FAIL**](peers/x/GRD-1-seed1.json) |')
    expect(rows.find((r) => r.startsWith('| GRD-3 |'))).toBe('| GRD-3 | pass |')
    expect(rows.some((r) => r.startsWith('| PST-1 |'))).toBe(false)
    expect(rows.find((r) => r.startsWith('Not applicable to any'))).toContain('PST-1 (no post-execute)')
    report.clauses.find((c) => c.id === 'GRD-3')!.baseline = 'stale'
    const stale = peerMatrix([run], { runs: 1, seed: 1 }).split('\n')
    expect(stale.find((r) => r.startsWith('| GRD-3 |'))).toBe('| GRD-3 | pass (**STALE** baseline entry) |')
    expect(gateLine(report, run.peer)).toBe(
      `the baseline gate fails: new failures GRD-1; stale entries GRD-3 (they pass now) (${run.peer.baseline})`,
    )
  })

  it('a peer whose own test double throws: one error naming the adapter and the seam; other clauses get verdicts', async () => {
    const { default: broken } = await import('../fixtures/adapters/broken/double-throws-on-abort.js')
    expect(await checkProperty(property('CAN-1'), broken, { runs: 20, seed: 1 })).toEqual({
      status: 'error',
      error: 'adapter double-throws-on-abort: its own test double failed at the cancellation seam (a harness error, not the library\'s): ' +
        'the scripted model threw: it has no answer for an aborted turn',
    })
    expect((await checkProperty(property('OUT-3'), broken, { runs: 20, seed: 1 })).status).toBe('passed')
  })

  it('a library version that is not installed is one error naming the adapter', async () => {
    await expect(agentsAdapter('agents-core-0.0.0-missing', '0.0.0').create({})).rejects.toThrow(
      /^adapter openai-agents@0\.0\.0: agents-core-0\.0\.0-missing is not installed/,
    )
  })
})

describe('faults the generated cases find', () => {
  it('ai 7.0.18: a call naming an Object.prototype member gets no result (IN-4); 7.0.19 always publishes one', async () => {
    // IN-4 fails at 7.0.18 (its first failure may be another of its faults); this one is the missing result.
    expect((await checkProperty(property('IN-4'), ai18, { runs: 50, seed: 1 })).status).toBe('failed')
    const fixed = await traces(ai19, 'IN-4', 40, 1)
    const faulty = await traces(ai18, 'IN-4', 40, 1)
    expect(faulty.some((t) => noResult(t.trace))).toBe(true)
    expect(fixed.filter((t) => noResult(t.trace))).toEqual([])
  })

  it('ai 7.0.18: a per-tool ask on a tool named after an Object.prototype member runs it without asking (PRE-5); 7.0.19 asks', async () => {
    const failure = failed(await checkProperty(property('PRE-5'), ai18, { runs: 50, seed: 1 }))
    const scenario = failure.testCase as Scenario
    // The ask sits on the tool itself (needsApproval), the record has no entry for it: the lookup reaches the prototype.
    const asked = (scenario.toolDecisions ?? []).map((d) => d.tool)
    expect(asked.some((name) => name in Object.prototype && scenario.calls.some((c) => c.tool === name))).toBe(true)
    expect(failure.trace?.events.some((e) => e.ev === 'enter' && e.stage === 'body')).toBe(true)
    expect((await checkProperty(property('PRE-5'), ai19, { runs: 50, seed: 1 })).status).toBe('passed')
  })

  it('agents-core 0.13.5: the run signal never reaches the tool (CAN-1, CAN-3); 0.14.0 hands it over', async () => {
    const early = failed(await checkProperty(property('CAN-1'), agents135, { runs: 50, seed: 1 }))
    expect(early.trace?.events.some((e) => e.ev === 'enter' && e.stage === 'body')).toBe(true)
    expect((await checkProperty(property('CAN-1'), agents140, { runs: 50, seed: 1 })).status).toBe('passed')
    // Unshrunk: a body that waits for a signal that never comes spends its whole budget per case.
    const late = failed(await checkProperty(property('CAN-3'), agents135, { runs: 50, seed: 1, shrink: false }))
    // The body kept an unaborted signal after the caller's abort: it finished anyway, or waits still.
    const stranded = late.trace?.calls.some((c) => c.bodySignalAborted === false) || late.trace?.hung?.lastStage.startsWith('body')
    expect(stranded).toBe(true)
    const fixed = await traces(agents140, 'CAN-3', 20, 1)
    // A call whose caller aborted while its body ran, and whose body's signal did not show it.
    const at = (t: Trace, call: string, match: (e: Trace['events'][number]) => boolean) => t.events.findIndex((e) => 'call' in e && e.call === call && match(e))
    const unheard = (t: Trace) => t.calls.some((c) => {
      const abortAt = at(t, c.callId, (e) => e.ev === 'abort')
      const leftAt = at(t, c.callId, (e) => e.ev === 'leave' && e.stage === 'body')
      return c.bodySignalAborted === false && abortAt >= 0 && at(t, c.callId, (e) => e.ev === 'enter' && e.stage === 'body') < abortAt && abortAt < leftAt
    })
    expect(fixed.filter((t) => unheard(t.trace))).toEqual([])
  })

  it('MCP SDK 1.32.2: a failed tool reporting structured details is checked against the success output ' +
    'schema and callTool rejects (IN-4); 2.0.0-beta.1 resolves', async () => {
    // IN-4 fails at 1.32.2 (its first failure may be another of its faults: an Object.prototype name); this one rejects after a failed body.
    expect((await checkProperty(property('IN-4'), mcp1, { runs: 100, seed: 1 })).status).toBe('failed')
    // Its cases are drawn among IN-4's other faults (bodies throwing null or undefined too): three seeds' worth.
    const drawn = (await Promise.all([1, 2, 3].map((seed) => traces(mcp1, 'IN-4', 100, seed)))).flat()
    const faulty = drawn.filter(rejectedAfterFailedBody)
    expect(faulty.length).toBeGreaterThan(0)
    // What the failing body threw carried its own structured details, and its tool declares an object output schema.
    const { scenario } = faulty[0]!
    const failed = scenario.tools.filter((t) => ['throw', 'reject'].includes(t.body.outcome.kind) && scenario.calls.some((c) => c.tool === t.name))
    const objectSchema = (t: ToolSpec) => (t.outputSchema as { type?: unknown }).type === 'object'
    const thrownWithData = (t: ToolSpec) =>
      'thrown' in t.body.outcome && typeof t.body.outcome.thrown === 'object' && t.body.outcome.thrown !== null && 'data' in t.body.outcome.thrown
    expect(failed.some((t) => objectSchema(t) && thrownWithData(t))).toBe(true)
    expect((await traces(mcp2, 'IN-4', 100, 1)).filter(rejectedAfterFailedBody)).toEqual([])
  })

  it('agents-core 0.20.0: a needsApproval answer that is falsy but not false runs the tool without asking (PRE-3)', async () => {
    const failure = failed(await checkProperty(property('PRE-3'), agentsLatest, { runs: 100, seed: 1 }))
    const answers = ((failure.testCase as Scenario).toolDecisions ?? []).map((d) => d.decision)
    const falsy = (v: unknown) => v === 0 || v === '' || v === null || (typeof v === 'object' && v !== null && (v as { $?: unknown }).$ === 'undefined')
    expect(answers.some(falsy)).toBe(true)
    expect(failure.trace?.events.some((e) => e.ev === 'enter' && e.stage === 'body')).toBe(true)
  })

  it('ai 7.0.173: the reason of an ask reaches the approver as the SDK carries it (APR-1); its mock model honours an aborted signal (CAN-1)', async () => {
    // Each approval request whose deciding ask (the one listener, or the tool's own decision) carried a reason.
    const asked = (await traces(aiLatest, 'APR-1', 60, 1)).flatMap(({ scenario, trace }) =>
      trace.events.flatMap((e) => {
        if (e.ev !== 'approval-request') return []
        const own = (scenario.toolDecisions ?? []).find((d) => d.tool === e.toolName)
        const expected = reasonOf(own ? own.decision : scenario.pre[0]?.decision)
        return expected.length > 0 ? [{ expected: expected[0], got: e.reason }] : []
      }),
    )
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.filter(({ expected, got }) => got !== expected)).toEqual([])
    expect((await checkProperty(property('CAN-1'), aiLatest, { runs: 100, seed: 1 })).status).toBe('passed')
  })

  it('mastra 1.0.4: a tool that throws is published as a success (OUT-3); 1.71.0 publishes an error', async () => {
    const failure = failed(await checkProperty(property('OUT-3'), mastra104, { runs: 100, seed: 1 }))
    const scenario = failure.testCase as Scenario
    expect(scenario.tools.some((t) => ['throw', 'reject'].includes(t.body.outcome.kind))).toBe(true)
    expect(failure.trace?.calls.some((c) => c.result?.isError === false)).toBe(true)
    expect((await checkProperty(property('OUT-3'), mastraLatest, { runs: 100, seed: 1 })).status).toBe('passed')
  })

  it('LangGraph: a value JSON cannot hold, stringified into a success that survives a round trip, fails META-2; so does Mastra 1.71.0', async () => {
    for (const adapter of [mastraLatest, langgraph]) {
      const failure = failed(await checkProperty(property('META-2'), adapter, { runs: 100, seed: 1 }))
      const scenario = failure.testCase as Scenario
      const returned = scenario.tools.map((t) => t.body.outcome).filter((o) => o.kind === 'return')
      expect(returned.some((o) => 'value' in o && !isLosslessDesc(o.value)), adapter.name).toBe(true)
      if (adapter !== langgraph) continue // Mastra publishes such a value as it is or as a lossy copy, seed by seed
      const published = failure.trace?.calls.find((c) => c.result?.isError === false)?.result
      expect(JSON.parse(JSON.stringify(published)), adapter.name).toEqual(published)
    }
  })

  it('LangGraph ToolNode: a tool throwing undefined or null makes the node reject (IN-4)', async () => {
    const failure = failed(await checkProperty(property('IN-4'), langgraph, { runs: 50, seed: 1 }))
    expect(rejected(failure.trace)).toBe(true)
    const thrown = (failure.testCase as Scenario).tools.map((t) => t.body.outcome).filter((o) => o.kind === 'throw' || o.kind === 'reject')
    expect(thrown.some(
      (o) => 'thrown' in o && (o.thrown === null || (typeof o.thrown === 'object' && !Array.isArray(o.thrown) && o.thrown.$ === 'undefined')),
    )).toBe(true)
  })
})
