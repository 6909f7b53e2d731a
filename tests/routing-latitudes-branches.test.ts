// False failures the oracle gave a conforming registry (issue 23, point 2), each shown on a
// hand-written case: the variant that takes the legal branch passes, and the reference too; beside
// it, the fault the rule still catches.
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import { plainTool } from '../harness/arbitraries/tools.js'
import { runJudged } from '../harness/property/scenario-property.js'
import { emptyScenario, type Scenario, type ToolSpec, type ValueDesc } from '../harness/scenario/types.js'
import reference from '../reference-impl/adapters/reference.js'
import unknownAfterPolicy from '../fixtures/variants/unknown-tool-after-policy.js'
import nestedWithoutMeta from '../fixtures/variants/nested-without-meta.js'
import secondNextResumes from '../fixtures/variants/second-next-resumes.js'
import contextsDropped from '../fixtures/variants/contexts-dropped-on-pipeline-errors.js'
import contextsDroppedOnError from '../fixtures/mutants/ctx-dropped-on-error.js'
import metaDropped from '../fixtures/mutants/out-meta-dropped.js'
import { referenceStages, withCall, withStages } from '../fixtures/mutants/support.js'

const clausesOf = async (adapter: ConformanceAdapter, scenario: Scenario) =>
  (await runJudged(adapter, scenario)).violations.map((v) => `${v.clause} ${v.call ?? ''}`.trim())

/** The nested-without-meta branch taken on root calls too: presentationMeta is never called. */
const metaNeverCalled = withStages('meta-never-called', {
  valueToResult: (call, raw) => referenceStages.valueToResult(withCall(call, { tool: { ...call.tool, presentationMeta: undefined } }), raw),
})

const context = { role: 'user', content: [{ type: 'text', text: 'later' }] }

describe('IN-4: a call to no visible tool may go through the policy before it ends', () => {
  const denying = (decision: 'delegate' | 'deny'): Scenario => ({
    ...emptyScenario(),
    tools: [plainTool()],
    pre: [{ timing: 'sync', decision: decision === 'deny' ? { kind: 'returns', value: { kind: 'deny', reason: 'no' } } : { kind: 'delegate' } }],
    post: [{ timing: 'sync', decision: { kind: 'delegate' } }],
    calls: [{ tool: 'missing_tool', args: {} }],
  })
  it('accepts both branches, whether the gates let the call on or deny it', async () => {
    for (const decision of ['delegate', 'deny'] as const) {
      expect(await clausesOf(reference, denying(decision))).toEqual([])
      expect(await clausesOf(unknownAfterPolicy, denying(decision))).toEqual([])
    }
  })
})

describe('OUT-2: a nested call may omit meta, so its presentationMeta may never be called', () => {
  const leaf: ToolSpec = { ...plainTool('leaf'), meta: { kind: 'throws' } }
  const composite: ToolSpec = {
    ...plainTool('composite'),
    body: { steps: [{ kind: 'dispatch', tool: 'leaf', args: {} }], outcome: { kind: 'return', value: { ok: true } } },
  }
  const nested: Scenario = { ...emptyScenario(), tools: [composite, leaf], calls: [{ tool: 'composite', args: {} }] }
  it('accepts a nested success published without meta where presentationMeta would throw', async () => {
    expect(await clausesOf(reference, nested)).toEqual([])
    expect(await clausesOf(nestedWithoutMeta, nested)).toEqual([])
  })
  it('still demands meta on a root call, and the error of a throwing presentationMeta there', async () => {
    const withMeta: Scenario = { ...nested, tools: [{ ...leaf, meta: { kind: 'json-text' } }], calls: [{ tool: 'leaf', args: {} }] }
    expect(await clausesOf(nestedWithoutMeta, withMeta)).toEqual([])
    expect(await clausesOf(metaDropped, withMeta)).toEqual(['OUT-2 c0'])
    const throwing: Scenario = { ...nested, calls: [{ tool: 'leaf', args: {} }] }
    expect(await clausesOf(nestedWithoutMeta, throwing)).toEqual([])
    expect(await clausesOf(metaNeverCalled, throwing)).toEqual(['OUT-2 c0'])
  })
})

describe("EXE-1, EXE-4: a wrapper calling next() twice is PRE-8's case", () => {
  const twice: Scenario = {
    ...emptyScenario(),
    tools: [plainTool()],
    wrappers: [
      { timing: 'sync', action: { kind: 'next-twice' } },
      { timing: 'sync', action: { kind: 'made-up', result: { isError: false, value: { made: true } } } },
    ],
    calls: [{ tool: 'read_file', args: {} }],
  }
  it('files a second next() that skipped the inner wrapper under PRE-8 alone', async () => {
    expect(await clausesOf(reference, twice)).toEqual([])
    expect(await clausesOf(secondNextResumes, twice)).toEqual(['PRE-8 c0'])
  })
})

describe('CTX-1: an illegal post-execute value is a pipeline error that may drop the contexts', () => {
  const deferring: ToolSpec = {
    ...plainTool(),
    outputSchema: { type: 'object' },
    body: { steps: [{ kind: 'defer', context }], outcome: { kind: 'return', value: {} } },
  }
  const replacing = (value: ValueDesc): Scenario => ({
    ...emptyScenario(),
    tools: [deferring],
    post: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'accept', value } } }],
    calls: [{ tool: 'read_file', args: {} }],
  })
  it('accepts contexts dropped when the replaced value fails the output schema', async () => {
    expect(await clausesOf(reference, replacing('not an object'))).toEqual([])
    expect(await clausesOf(contextsDropped, replacing('not an object'))).toEqual([])
  })
  it('still demands them on a legal replacement, and on a tool error', async () => {
    expect(await clausesOf(contextsDropped, replacing({ fine: true }))).toEqual([])
    const throwing: ToolSpec = { ...deferring, body: { ...deferring.body, outcome: { kind: 'throw', thrown: 'boom' } } }
    const thrown: Scenario = { ...replacing({}), post: [], tools: [throwing] }
    expect(await clausesOf(contextsDroppedOnError, thrown)).toEqual(['CTX-1 c0'])
  })
})
