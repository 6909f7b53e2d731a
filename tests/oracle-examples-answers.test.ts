// The oracle on hand-written traces for reaches that give one case several answers or several
// paths: an approval service answering each request in turn, a projection called detached on a
// wrapper's made-up success or on a body's value, and a value frozen at its root only.
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../harness/scenario/trace.js'
import type { ApprovalSpec } from '../harness/scenario/types.js'
import { jsonOf, isLosslessDesc } from '../harness/scenario/read-desc.js'
import { bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, traceOf } from './oracle-example-traces.js'

describe('an approval service that answers each request in turn', () => {
  const approval: ApprovalSpec = { kind: 'returns', timing: 'sync', value: 'ALLOWED-ONCE', later: ['allowed-once'] }
  const s = scenarioOf({
    config: { approval },
    pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'ask' } } }],
    calls: [{ tool: 'lookup', args: {}, agent: 'A' }, { tool: 'lookup', args: {}, agent: 'A' }],
  })
  const asked = (call: string): TraceEvent[] => [
    enter('pre', { call, token: call === 'c0' ? 1 : 2 }),
    leave('pre', 0, call),
    { ev: 'approval-request', call, keys: ['callId', 'reason', 'signal', 'toolName'], toolName: 'lookup', reason: undefined, signalIsCaller: true },
  ]
  const ran = (call: string) => bodyRan({ call, token: 2 }).map((x) => ({ ...x, call }))
  it('conforms when only the request answered exactly allowed-once runs its body', () => {
    const events = [...asked('c0'), settled('c0'), ...asked('c1'), ...ran('c1'), settled('c1')]
    expect(checksOf(s, traceOf(events, record(failure()), record(success(1), { callId: 'c1' })))).toEqual([])
  })
  it('APR-2: the request answered ALLOWED-ONCE ran its body', () => {
    const first = bodyRan({ token: 1 })
    const events = [...asked('c0'), ...first, settled('c0'), ...asked('c1'), ...ran('c1'), settled('c1')]
    const checks = checksOf(s, traceOf(events, record(success(1)), record(success(1), { callId: 'c1' })))
    expect(checks).toEqual(['APR-2:routing/body-count', 'APR-2:outcome/kind'])
  })
})

describe('a projection called with a this other than its output', () => {
  const madeUp = { timing: 'sync' as const, action: { kind: 'made-up' as const, result: { isError: false, value: 7, content: [] } } }
  const detached = (value: string) => ({ tool: 'lookup', args: '{}', detached: true as const, value })
  it('EXE-4: on the success a wrapper made up only', () => {
    const s = scenarioOf({ wrappers: [madeUp] })
    const trace = { ...traceOf([enter('wrapper'), leave('wrapper'), settled()], record(success(7))), projected: [detached('7')] }
    expect(checksOf(s, trace)).toEqual(['EXE-4:projection/projection-detached'])
  })
  it('OUT-2: on the body\'s value', () => {
    const trace = { ...traceOf([...bodyRan(), settled()], record(success(1))), projected: [detached('1')] }
    expect(checksOf(scenarioOf(), trace)).toEqual(['OUT-2:projection/projection-detached'])
  })
})

describe('a value frozen at its root only', () => {
  it('is the JSON it holds, lossless where that is', () => {
    const frozen = { $: 'frozen' as const, value: { items: [1, 2] } }
    expect(isLosslessDesc(frozen)).toBe(true)
    expect(jsonOf(frozen)).toEqual({ items: [1, 2] })
    expect(isLosslessDesc({ $: 'frozen', value: { n: { $: 'bigint' } } })).toBe(false)
  })
})
