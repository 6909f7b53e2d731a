// False positives the routing oracle used to report (issue 11, classes 2, 8, 9 and the CTX-2
// inversion), each shown on a hand-written case or a property run, beside the fault that must
// still fail: a latitude is accepted, the rule around it is not loosened.
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import { plainTool } from '../harness/arbitraries/tools.js'
import { checkProperty } from '../harness/engine/check-property.js'
import { runJudged } from '../harness/property/scenario-property.js'
import { emptyScenario, type Scenario, type ToolSpec } from '../harness/scenario/types.js'
import { PROPERTIES } from '../suites/index.js'
import { referenceStages } from '../reference-impl/index.js'
import { stop } from '../reference-impl/pipeline/call-state.js'
import { denied } from '../reference-impl/outcomes.js'
import reference, { referenceAdapter } from '../reference-impl/adapters/reference.js'
import agentlessAskDenied from '../fixtures/variants/agentless-ask-denied.js'
import disposedMidCall from '../fixtures/variants/disposed-mid-call-unknown.js'
import signalByAssignment from '../fixtures/variants/signal-by-assignment.js'
import dropsNestedConclusion from '../fixtures/mutants/ctx-drops-nested-conclusion.js'
import finMixedDefinitions from '../fixtures/mutants/fin-mixed-definitions.js'
import translationDropped from '../fixtures/mutants/exe-signal-translation-dropped.js'

const clausesOf = async (adapter: ConformanceAdapter, scenario: Scenario) =>
  (await runJudged(adapter, scenario)).violations.map((v) => `${v.clause} ${v.call ?? ''}`.trim())

const verdict = async (clause: string, adapter: ConformanceAdapter) => {
  const property = PROPERTIES.find((p) => p.id === clause)!
  return (await checkProperty(property, adapter, { runs: 30, seed: 20261202, shrink: false })).status
}

/** An ask, an approval that grants, a guard that throws: forwarding ends at GRD-3, denying at APR-1. */
const asking = (agent?: 'A'): Scenario => ({
  ...emptyScenario(),
  config: { approval: { kind: 'returns', timing: 'sync', value: 'allowed-once' } },
  tools: [plainTool()],
  pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'ask', reason: 'needs a human' } } }],
  guards: [{ verdict: { kind: 'throws' } }],
  calls: [{ tool: 'read_file', args: {}, ...(agent ? { agent } : {}) }],
})

const denyingEveryAsk = referenceAdapter('denies-every-ask', {
  stages: { ...referenceStages, approve: async () => stop(denied('denied without asking'), true) },
})

describe('APR-1: an agent-less ask may be denied without asking (class 2)', () => {
  it('accepts both branches for a call with no agent', async () => {
    expect(await clausesOf(reference, asking())).toEqual([])
    expect(await clausesOf(agentlessAskDenied, asking())).toEqual([])
  })
  it('still demands forwarding for a call that carries an agent', async () => {
    expect(await clausesOf(agentlessAskDenied, asking('A'))).toEqual([])
    expect(await clausesOf(denyingEveryAsk, asking('A'))).toContain('APR-1 c0')
  })
})

const leaf: ToolSpec = { ...plainTool('leaf'), body: { steps: [{ kind: 'conclude' }], outcome: { kind: 'return', value: { ok: true } } } }
const composite: ToolSpec = {
  ...plainTool('composite'),
  body: { steps: [{ kind: 'dispatch', tool: 'leaf', args: { q: 'nested' } }], outcome: { kind: 'return', value: { ok: true } } },
}
const nested: Scenario = { ...emptyScenario(), tools: [composite, leaf], calls: [{ tool: 'composite', args: {} }] }

describe('CTX-2: a forwarded nested conclusion concludes the enclosing call (the inversion)', () => {
  it('passes a registry that concludes both the nested call and the enclosing one', async () => {
    expect(await clausesOf(reference, nested)).toEqual([])
  })
  it('fails a registry that drops the nested conclusion, on the nested call', async () => {
    expect(await clausesOf(dropsNestedConclusion, nested)).toEqual(['CTX-2 c0/0'])
  })
})

describe('FIN-1: one definition per call (class 8)', () => {
  it('accepts a call that ends as UNKNOWN_TOOL when its tool is disposed mid-call', async () => {
    expect(await verdict('FIN-1', disposedMidCall)).toBe('passed')
  })
  it('fails a registry that runs the re-registered body with the entry finalizer', async () => {
    expect(await verdict('FIN-1', finMixedDefinitions)).toBe('failed')
  })
})

describe('EXE-2: signal replacement through the adapter (class 9)', () => {
  it('accepts a registry that replaces the signal by assignment, translated in its adapter', async () => {
    expect(await verdict('EXE-2', signalByAssignment)).toBe('passed')
  })
  it('fails the same registry when the adapter drops the translation', async () => {
    expect(await verdict('EXE-2', translationDropped)).toBe('failed')
  })
})
