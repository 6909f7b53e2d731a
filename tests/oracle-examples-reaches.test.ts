// The oracle on hand-written traces for the newer reaches: a refused value as an abort lands, a made-up
// result after the body, nested calls handed an aborted signal of their own or made for another caller,
// listeners that throw once next() has answered, shared subtrees, and one input object handed again.
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../harness/scenario/trace.js'
import { bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, tool, traceOf } from './oracle-example-traces.js'

const [bodyEntered, bodyLeft] = bodyRan()
const asSettled: TraceEvent = { ev: 'abort', call: 'c0', asBodySettled: true }

describe('CAN-4: a value the output schema refuses, as the caller aborts', () => {
  const outputSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
  const refusing = scenarioOf({
    tools: [tool({ outputSchema, body: { steps: [], outcome: { kind: 'return', value: { done: true } } } })],
    calls: [{ tool: 'lookup', args: {}, abortAsBodySettles: true }],
  })
  const events = [bodyEntered!, bodyLeft!, asSettled, settled()]
  it('conforms when INVALID_TOOL_OUTPUT stays', () => {
    const invalid = failure({ error: { message: 'invalid output', code: 'INVALID_TOOL_OUTPUT' } })
    expect(checksOf(refusing, traceOf(events, record(invalid, { code: 'INVALID_TOOL_OUTPUT' })))).toEqual([])
  })
  it('CAN-4: the tool\'s own failure replaced with ABORTED', () => {
    expect(checksOf(refusing, traceOf(events, record(failure(), { code: 'ABORTED' })))).toEqual(['CAN-4:cancellation/decided-error-replaced'])
  })
})

describe('a wrapper that returns a made-up result after the body ran', () => {
  const context = { role: 'user', content: [{ type: 'text', text: 'from the body' }] }
  const deferring = scenarioOf({
    tools: [tool({ body: { steps: [{ kind: 'defer', context }], outcome: { kind: 'return', value: 1 } } })],
    wrappers: [{ timing: 'sync', action: { kind: 'made-up-after-next', result: { isError: false, value: 2 } } }],
  })
  const events = [enter('wrapper'), ...bodyRan(), leave('wrapper'), settled()]
  it('conforms when the made-up success carries the body\'s contexts', () => {
    expect(checksOf(deferring, traceOf(events, record(success(2, { additionalContexts: [context] }))))).toEqual([])
  })
  it('CTX-1: the contexts dropped with the body\'s own result', () => {
    expect(checksOf(deferring, traceOf(events, record(success(2))))).toEqual(['CTX-1:outcome/contexts'])
  })
})

describe('nested calls', () => {
  const nestedStep = (over: object) => ({ kind: 'dispatch' as const, tool: 'leaf', args: {}, ...over })
  const nesting = (over: object) => scenarioOf({
    tools: [tool({ body: { steps: [nestedStep(over)], outcome: { kind: 'return', value: 1 } } }), tool({ name: 'leaf' })],
    pre: [{ timing: 'sync', decision: { kind: 'delegate' } }],
  })
  const outer = [enter('pre'), leave('pre'), bodyEntered!]
  const nestedEnd = (code?: string) => ({ callId: 'c0/0', result: code ? failure() : success(1), observed: [], ...(code ? { code } : {}) })
  it('CAN-1: a nested call handed an aborted signal of its own is refused at entry, whatever its parent\'s signal says', () => {
    const aborted = nesting({ abortedSignal: true })
    const refused = { ...traceOf([...outer, bodyLeft!, settled()], record(success(1))), nested: [nestedEnd('ABORTED_BEFORE_DISPATCH')] }
    expect(checksOf(aborted, refused)).toEqual([])
    const nestedPre = [enter('pre', { call: 'c0/0', token: 2 }), leave('pre', 0, 'c0/0')]
    const entered = { ...traceOf([...outer, ...nestedPre, bodyLeft!, settled()], record(success(1))), nested: [nestedEnd('ABORTED')] }
    expect(checksOf(aborted, entered)).toEqual(['CAN-1:entry/stage-ran', 'CAN-1:outcome/code'])
  })
  it('PRE-7: a nested call made for no agent, by agent A\'s program, meets none of A\'s listeners', () => {
    const forNone = { ...nesting({ agent: 'none' }), pre: [{ timing: 'sync' as const, decision: { kind: 'delegate' as const }, scope: 'A' as const }] }
    const byA = { ...forNone, calls: [{ tool: 'lookup', args: {}, agent: 'A' as const }] }
    const nestedBody = [enter('body', { call: 'c0/0', token: 2, detail: JSON.stringify({ tool: 'leaf', name: 'leaf', args: {} }) }), leave('body', 0, 'c0/0')]
    const ran = (nestedPre: TraceEvent[]) =>
      ({ ...traceOf([...outer, ...nestedPre, ...nestedBody, bodyLeft!, settled()], record(success(1))), nested: [nestedEnd()] })
    expect(checksOf(byA, ran([]))).toEqual([])
    expect(checksOf(byA, ran([enter('pre', { call: 'c0/0', token: 2 }), leave('pre', 0, 'c0/0')]))).toEqual(['PRE-7:routing/hook-out-of-scope'])
  })
})

describe('a listener that throws once next() has answered', () => {
  const throwsAfter = { kind: 'throws-after-next' as const }
  it('PRE-4: an allow from inside does not stand; the body never runs', () => {
    const s = scenarioOf({ pre: [{ timing: 'sync', decision: throwsAfter }, { timing: 'sync', decision: { kind: 'returns', value: { kind: 'allow' } } }] })
    const pre = [enter('pre'), enter('pre', { index: 1 }), leave('pre', 1), leave('pre')]
    expect(checksOf(s, traceOf([...pre, settled()], record(failure())))).toEqual([])
    expect(checksOf(s, traceOf([...pre, ...bodyRan(), settled()], record(success(1))))).toEqual(['PRE-4:routing/body-count', 'PRE-4:outcome/kind'])
  })
  it('PST-3: an accept from inside does not stand', () => {
    const s = scenarioOf({ post: [{ timing: 'sync', decision: throwsAfter }, { timing: 'sync', decision: { kind: 'returns', value: { kind: 'accept' } } }] })
    const post = [enter('post'), enter('post', { index: 1 }), leave('post', 1), leave('post')]
    expect(checksOf(s, traceOf([...bodyRan(), ...post, settled()], record(failure())))).toEqual([])
    expect(checksOf(s, traceOf([...bodyRan(), ...post, settled()], record(success(1))))).toEqual(['PST-3:outcome/kind'])
  })
})

describe('values that hold one object twice, and one input object handed again', () => {
  it('OUT-1: a valid value holding one row object twice is published, not refused as a cycle', () => {
    const rows = { rows: { $: 'twice' as const, value: { id: 1 } } }
    const outputSchema = { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } }, required: ['rows'] }
    const s = scenarioOf({ tools: [tool({ outputSchema, body: { steps: [], outcome: { kind: 'return', value: rows } } })] })
    const published = success({ rows: [{ id: 1 }, { id: 1 }] })
    expect(checksOf(s, traceOf([...bodyRan(), settled()], record(published)))).toEqual([])
    const refused = record(failure({ error: { message: 'a cycle', code: 'INVALID_TOOL_OUTPUT' } }), { code: 'INVALID_TOOL_OUTPUT' })
    expect(checksOf(s, traceOf([...bodyRan(), settled()], refused))).toEqual(['OUT-1:outcome/kind'])
  })
  it('RES-1, IN-3: a second call handed the first one\'s input object is a call of its own', () => {
    const s = scenarioOf({ calls: [{ tool: 'lookup', args: {} }, { tool: 'lookup', args: {}, sameCallIdAs: 0, reusesInput: true }] })
    const second = bodyRan({ call: 'c1', token: 2 }).map((x) => ({ ...x, call: 'c1' }))
    const events = [...bodyRan(), settled(), ...second, settled('c1')]
    expect(checksOf(s, traceOf(events, record(success(1)), record(success(1), { callId: 'c1' })))).toEqual([])
    const sameToken = bodyRan({ call: 'c1', token: 1 }).map((x) => ({ ...x, call: 'c1' }))
    expect(checksOf(s, traceOf([...bodyRan(), settled(), ...sameToken, settled('c1')], record(success(1)), record(success(1), { callId: 'c1' }))))
      .toEqual(['IN-3:immutability/token-of-another-call'])
  })
})

describe('a denial decided before the abort, published as a success', () => {
  it('is the denial\'s clause, not cancellation\'s', () => {
    const s = scenarioOf({
      pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'deny', reason: 'no' } } }],
      calls: [{ tool: 'lookup', args: {}, abortScheduled: true }],
    })
    const events: TraceEvent[] = [enter('pre'), leave('pre'), { ev: 'abort', call: 'c0' }, ...bodyRan(), settled()]
    const checks = checksOf(s, traceOf(events, record(success(1))))
    expect(checks).toContain('PRE-2:cancellation/decided-error-replaced')
    expect(checks.filter((c) => c.startsWith('CAN-4'))).toEqual([])
  })
})
