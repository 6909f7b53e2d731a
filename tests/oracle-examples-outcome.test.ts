// The oracle on hand-written traces (issue 11, item 5), continued: immutability, hostile hooks,
// the outcome's shape and content, code mode, OUT-5's lax branch and the one-fault-one-verdict
// filters — each a conforming trace with no finding and a broken one filed under exactly its check.
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../harness/scenario/trace.js'
import { bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, tool, traceOf } from './oracle-example-traces.js'

const plain = scenarioOf()
const ran = (result = success(1), events: TraceEvent[] = []) => traceOf([...bodyRan(), ...events, settled()], record(result))

describe('immutability', () => {
  it('IN-1: every stage sees the execution frozen', () => {
    expect(checksOf(plain, ran())).toEqual([])
    expect(checksOf(plain, traceOf([...bodyRan({ execFrozen: false }), settled()], record(success(1))))).toEqual(['IN-1:immutability/execution-not-frozen'])
  })

  it('RES-2: the published result is deep-frozen', () => {
    const open = { isError: false, value: 1, content: [{ type: 'text', text: '1' }] } as const
    expect(checksOf(plain, ran(open as never))).toEqual(['RES-2:immutability/published-not-frozen'])
  })
})

describe('hostile', () => {
  const posted = scenarioOf({ post: [{ timing: 'sync', decision: { kind: 'delegate' } }] })
  const attacked = (changed: string[]): TraceEvent[] => [
    enter('post', { resultFrozen: true, isError: false }),
    { ev: 'attack', stage: 'post', call: 'c0', target: 'result', changed },
    leave('post'),
  ]
  it('PST-1: a post-execute hook\'s write on the result it was handed takes no effect', () => {
    expect(checksOf(posted, ran(success(1), attacked([])))).toEqual([])
    expect(checksOf(posted, ran(success(1), attacked(['value'])))).toEqual(['PST-1:hostile/result-written'])
  })
})

describe('outcome shape', () => {
  it('RES-3: a success carries no error', () => {
    expect(checksOf(plain, ran(success(1, { error: { message: 'x' } })))).toEqual(['RES-3:outcome-shape/result-shape'])
  })

  it('META-1: every part of the published outcome but its value is lossless JSON, whatever put it there', () => {
    const cyclic: Record<string, unknown> = { card: 'cyclic' }
    cyclic.self = cyclic
    const lossy = 'META-1:outcome-shape/published-not-lossless'
    // A cycle cannot survive a round trip either (META-2, a consequence); the meta no presentationMeta gave is OUT-2's.
    expect(checksOf(plain, ran(success(1, { meta: cyclic })))).toEqual([lossy, 'META-2:outcome-shape/json-round-trip', 'OUT-2:outcome/meta-absent'])
    // A Map survives JSON.stringify as {}: META-1 alone, so META-2 is no echo of it.
    expect(checksOf(plain, ran(success(1, { content: [{ type: 'text', text: '1', extra: new Map() }] })))).toEqual([lossy])
    expect(checksOf(plain, ran(failure({ error: { message: 'it failed', code: 1n } })))).toContain(lossy)
    const context = { role: 'user', content: [{ type: 'text', text: 'x', extra: undefined }] }
    expect(checksOf(plain, ran(success(1, { additionalContexts: [context] })))).toContain(lossy)
    expect(checksOf(plain, ran(success(1, { meta: { n: -0 } })))).toContain(lossy)
  })

  it('META-2: a body value JSON cannot hold is never published as a success, however the layer stringified it', () => {
    const bigint = scenarioOf({ tools: [tool({ body: { steps: [], outcome: { kind: 'return', value: { outer: { a: { $: 'bigint' } } } } } })] })
    // OUT-1 wants INVALID_TOOL_OUTPUT; the success "[object Object]" survives a JSON round trip but stands for a value it lost.
    expect(checksOf(bigint, ran(success('[object Object]')))).toEqual(['META-2:outcome-shape/lossy-success', 'OUT-1:outcome/kind'])
    const invalid = failure({ error: { message: 'invalid output', code: 'INVALID_TOOL_OUTPUT' } })
    expect(checksOf(bigint, traceOf([...bodyRan(), settled()], record(invalid, { code: 'INVALID_TOOL_OUTPUT' })))).toEqual([])
    // A lossless value published as a success is no such case.
    expect(checksOf(plain, ran(success(1)))).toEqual([])
  })

  it('OUT-5: published content is a ContentBlock[]', () => {
    expect(checksOf(plain, ran(success(1, { content: [{ type: 'video' }] })))).toEqual(['OUT-5:outcome-shape/published-shape'])
  })
})

describe('outcome', () => {
  it('OUT-1: the published value is the one the tool produced', () => {
    expect(checksOf(plain, ran(success(2)))).toEqual(['OUT-1:outcome/value'])
  })

  it('CTX-2: a success concludes the turn only when the body concluded it', () => {
    expect(checksOf(plain, ran(success(1, { concludesTurn: true })))).toEqual(['CTX-2:outcome/concludes'])
    const concluding = scenarioOf({ tools: [tool({ body: { steps: [{ kind: 'conclude' }], outcome: { kind: 'return', value: 1 } } })] })
    expect(checksOf(concluding, ran(success(1, { concludesTurn: true })))).toEqual([])
  })
})

describe('code mode', () => {
  const lossy = { tool: 'lookup', args: { x: { $: 'nan' } } } as const
  const hidden = scenarioOf({ config: { mode: 'code' }, calls: [lossy, lossy] })
  const ended = (first: string, second: string) =>
    traceOf([settled(), settled('c1')], record(failure(), { code: first }), record(failure(), { callId: 'c1', code: second }))
  it('CODE-1: calls with no visible tool and the same arguments end the same way, IN-2 first or not', () => {
    expect(checksOf(hidden, ended('UNKNOWN_TOOL', 'UNKNOWN_TOOL'))).toEqual([])
    expect(checksOf(hidden, ended('UNKNOWN_TOOL', 'INVALID_ARGS'))).toEqual(['CODE-1:code-mode/in2-first-differs'])
  })
})

describe('OUT-5 latitude (lax-shape)', () => {
  // render gives lossless content of the wrong shape; post-execute then replaces the value.
  const misshapen = scenarioOf({
    tools: [tool({ render: { kind: 'returns', value: [{ type: 'video' }] } })],
    post: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'accept', value: 2 } } }],
  })
  const posted = (isError: boolean) => [enter('post', { resultFrozen: true, isError }), leave('post')]
  it('OUT-5: the strict branch (INVALID_TOOL_OUTPUT, a value replaced on an error is PST-2) conforms', () => {
    expect(checksOf(misshapen, ran(failure(), posted(true)))).toEqual([])
  })

  it('OUT-5: publishing the misshapen content as it is holds every R clause and fails OUT-5 alone', () => {
    expect(checksOf(misshapen, ran(success(2, { content: [{ type: 'video' }] }), posted(false)))).toEqual(['OUT-5:lax-shape/lax-branch-taken'])
  })
})

describe('one fault, one verdict', () => {
  const lossy = scenarioOf({ calls: [{ tool: 'lookup', args: { x: { $: 'nan' } } }] })
  it('IN-2: a call that should have ended at entry fails only IN-2, whatever ran after', () => {
    expect(checksOf(lossy, traceOf([settled()], record(failure())))).toEqual([])
    const wentOn = traceOf([...bodyRan({ execFrozen: false }, { x: null }), settled()], record(failure()))
    expect(checksOf(lossy, wentOn)).toEqual(['IN-2:entry/stage-ran'])
  })

  it('IN-1: once a listener changed the execution, only IN-1 stands', () => {
    const tampered = ran(success(2), [{ ev: 'tamper', call: 'c0', changed: ['toolName'] }])
    expect(checksOf(plain, tampered)).toEqual(['IN-1:immutability/tamper'])
  })
})
