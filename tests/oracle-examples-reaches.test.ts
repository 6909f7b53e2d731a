// The oracle on hand-written traces for the newer reaches: a refused value as an abort lands, a made-up
// result after the body, a nested call handed an aborted signal of its own or made for another caller.
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
