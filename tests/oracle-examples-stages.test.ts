// The oracle on hand-written traces (issue 11, item 5): each check module of harness/oracle/checks/
// passes a conforming trace and files a broken one under exactly the expected check — no
// interpreter, no registry. Stages: hang, entry, routing, cancellation, delivery.
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../harness/scenario/trace.js'
import { abort, bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, tool, traceOf } from './oracle-example-traces.js'

const plain = scenarioOf()
const ran = traceOf([...bodyRan(), settled()], record(success(1)))

describe('hang', () => {
  it('PRE-6: a case that hung in a pre-execute listener fails PRE-6', () => {
    expect(checksOf(plain, ran)).toEqual([])
    expect(checksOf(plain, { ...traceOf([enter('pre')], record(success(1))), hung: { lastStage: 'pre0' } })).toEqual(['PRE-6:hang/ran-past-budget'])
  })
  it('IN-1: a hang after a listener renamed the call is void, as every later check is; the rename stands', () => {
    const renamed: TraceEvent = { ev: 'tamper', call: 'c0', changed: ['name'] }
    const hung = { lastStage: 'body0' }
    expect(checksOf(plain, { ...traceOf([enter('pre'), renamed, leave('pre'), enter('body')], record(success(1))), hung })).toEqual([
      'IN-1:immutability/tamper',
    ])
    const kept = { ...renamed, changed: [] }
    expect(checksOf(plain, { ...traceOf([enter('pre'), kept, leave('pre'), enter('body')], record(success(1))), hung })).toEqual([
      'CAN-3:hang/ran-past-budget',
    ])
  })
})

describe('entry', () => {
  const parallel = scenarioOf({ tools: [tool({ classifier: { kind: 'returns', value: true } })] })
  it('MODE-1: executionMode answers parallel for a tool that classifies the call concurrency-safe', () => {
    expect(checksOf(parallel, traceOf([...bodyRan(), settled()], record(success(1), { mode: 'parallel' })))).toEqual([])
    expect(checksOf(parallel, ran)).toEqual(['MODE-1:entry/execution-mode'])
  })

  const illTyped = scenarioOf({ calls: [{ tool: 'lookup', args: {}, malformed: 'not-an-object' }] })
  it('IN-5: an ill-typed input resolves with an error outcome, never a rejection', () => {
    expect(checksOf(illTyped, traceOf([settled()], record(failure())))).toEqual([])
    const { result: _none, ...rejected } = record(failure(), { rejected: 'TypeError: input' })
    expect(checksOf(illTyped, traceOf([settled()], rejected))).toEqual(['IN-5:entry/ill-typed-rejected'])
  })

  const lossy = scenarioOf({ calls: [{ tool: 'lookup', args: { x: { $: 'nan' } } }], pre: [{ timing: 'sync', decision: { kind: 'delegate' } }] })
  it('IN-2: arguments that are not lossless JSON end the call before any policy runs', () => {
    expect(checksOf(lossy, traceOf([settled()], record(failure())))).toEqual([])
    expect(checksOf(lossy, traceOf([enter('pre'), leave('pre'), settled()], record(failure())))).toEqual(['IN-2:entry/stage-ran'])
  })
})

describe('routing', () => {
  const denying = scenarioOf({ pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'deny', reason: 'no' } } }] })
  it('PRE-2: a denial ends the call before the body', () => {
    expect(checksOf(denying, traceOf([enter('pre'), leave('pre'), settled()], record(failure())))).toEqual([])
    expect(checksOf(denying, traceOf([enter('pre'), leave('pre'), ...bodyRan(), settled()], record(failure())))).toEqual(['PRE-2:routing/body-count'])
  })

  const delegating = scenarioOf({ pre: [{ timing: 'sync', decision: { kind: 'delegate' } }] })
  it('PRE-8: each pre-execute listener is entered once', () => {
    expect(checksOf(delegating, traceOf([enter('pre'), leave('pre'), ...bodyRan(), settled()], record(success(1))))).toEqual([])
    const twice = [enter('pre'), leave('pre'), enter('pre'), leave('pre'), ...bodyRan(), settled()]
    expect(checksOf(delegating, traceOf(twice, record(success(1))))).toEqual(['PRE-8:routing/hook-twice'])
  })

  const asking = scenarioOf({
    pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'ask', reason: 'why' } } }],
    config: { approval: { kind: 'returns', timing: 'sync', value: 'allowed-once' } },
    calls: [{ tool: 'lookup', args: {}, agent: 'A' }],
  })
  const request = (keys: string[]) => ({ ev: 'approval-request' as const, call: 'c0', keys, toolName: 'lookup', reason: 'why', signalIsCaller: true })
  it('APR-1: the approval request carries the tool name, the reason and the signal, never the arguments', () => {
    const granted = (keys: string[]) => traceOf([enter('pre'), leave('pre'), request(keys), ...bodyRan(), settled()], record(success(1)))
    expect(checksOf(asking, granted(['toolName', 'reason', 'signal']))).toEqual([])
    expect(checksOf(asking, granted(['toolName', 'reason', 'signal', 'arguments']))).toEqual(['APR-1:routing/approval-arguments'])
  })
})

describe('cancellation', () => {
  const longRunning = scenarioOf({
    tools: [tool({ body: { steps: [], outcome: { kind: 'until-aborted', value: 1 } } })],
    calls: [{ tool: 'lookup', args: {}, abortScheduled: true }],
  })
  const aborted = record(failure(), { code: 'ABORTED', bodySignalAborted: true })
  const [bodyEntered, bodyLeft] = bodyRan()
  it('EXE-2: the signal the body holds aborts when the caller aborts', () => {
    expect(checksOf(longRunning, traceOf([bodyEntered!, abort(), bodyLeft!, settled()], aborted))).toEqual([])
    const unheard = { ...aborted, bodySignalAborted: false }
    expect(checksOf(longRunning, traceOf([bodyEntered!, abort(), bodyLeft!, settled()], unheard))).toEqual(['EXE-2:cancellation/body-signal'])
  })

  it('CAN-3: an abort that lands as the body settles replaces its success; one after that may not', () => {
    const returning = scenarioOf({ calls: [{ tool: 'lookup', args: {}, abortAsBodySettles: true }] })
    const kept = record(success(1))
    const asSettled: TraceEvent = { ev: 'abort', call: 'c0', asBodySettled: true }
    expect(checksOf(returning, traceOf([bodyEntered!, bodyLeft!, asSettled, settled()], kept))).toEqual(['CAN-3:cancellation/aborted-body-success'])
    expect(checksOf(returning, traceOf([bodyEntered!, bodyLeft!, asSettled, settled()], record(failure(), { code: 'ABORTED' })))).toEqual([])
    expect(checksOf(returning, traceOf([bodyEntered!, bodyLeft!, abort(), settled()], kept))).toEqual([])
  })

  it('CAN-4: an abort while a post-execute listener blocks leaves the block; ABORTED in its place fails', () => {
    const feedback = [{ type: 'text', text: 'no' }]
    const blocking = scenarioOf({
      post: [{ timing: 'await', decision: { kind: 'returns', value: { kind: 'block', feedback } } }],
      calls: [{ tool: 'lookup', args: {}, abortWhilePostRuns: true }],
    })
    const events = [bodyEntered!, bodyLeft!, enter('post', { resultFrozen: true, isError: false }), abort(), leave('post'), settled()]
    expect(checksOf(blocking, traceOf(events, record(failure({ content: feedback }))))).toEqual([])
    expect(checksOf(blocking, traceOf(events, record(failure(), { code: 'ABORTED' })))).toEqual(['CAN-4:cancellation/decided-error-replaced'])
    // A block published as a success was never applied: PST-1's fault, not cancellation's.
    expect(checksOf(blocking, traceOf(events, record(success(1))))).not.toContain('CAN-4:cancellation/decided-error-replaced')
  })

  it('CAN-3: execute settles only after a started body settles', () => {
    expect(checksOf(longRunning, traceOf([bodyEntered!, abort(), settled(), bodyLeft!], aborted))).toEqual([
      'CAN-3:cancellation/settled-before-aborted-body',
      'CAN-3:cancellation/settled-before-body',
    ])
  })
})

describe('delivery', () => {
  const finalizing = scenarioOf({ tools: [tool({ finalize: { kind: 'keep' } })], observers: [{ throws: false }] })
  const published = success(1)
  const finalizeSaw = enter('finalize', { resultFrozen: true, isError: false, detail: JSON.stringify(published) })
  const observer = enter('observer', { resultFrozen: true, isError: false })
  const delivered = (events: ReturnType<typeof enter>[], observed: unknown[]) =>
    traceOf([...bodyRan(), ...events, leave('finalize'), settled(), observer], record(published, { observed }))
  it('FIN-2: finalizeContent runs exactly once for a tool that has one', () => {
    expect(checksOf(finalizing, delivered([finalizeSaw], [published]))).toEqual([])
    expect(checksOf(finalizing, delivered([], [published]))).toEqual(['FIN-2:delivery/finalize-count'])
  })

  it('RES-1: every observer receives the very object execute resolved with', () => {
    expect(checksOf(finalizing, delivered([finalizeSaw], [success(1)]))).toEqual(['RES-1:delivery/observer-identity'])
  })
})
