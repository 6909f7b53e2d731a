// The oracle on hand-written traces: echoes — checks keyed on what an earlier broken rule let happen,
// which are void in that case (one fault, one verdict). The guards' legal branches: oracle-examples-guards.test.ts.
import { describe, expect, it } from 'vitest'
import { abort, bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, tool, traceOf } from './oracle-example-traces.js'

const deny = { timing: 'sync' as const, decision: { kind: 'returns' as const, value: { kind: 'deny', reason: 'no' } } }
const allow = { timing: 'sync' as const, decision: { kind: 'returns' as const, value: { kind: 'allow' } } }
const preRan = (index: number) => [enter('pre', { index }), leave('pre', index)]

describe('hook order (E1)', () => {
  it('PRE-1: when another listener decided, only PRE-1 stands (not the PRE-2 of the listener predicted to decide)', () => {
    const denyThenAllow = scenarioOf({ pre: [deny, allow] })
    expect(checksOf(denyThenAllow, traceOf([...preRan(1), ...bodyRan(), settled()], record(success(1))))).toEqual(['PRE-1:routing/hook-order'])
  })
  it('PRE-1: a scoped listener skipped over (a later one ran) is an order fault, not PRE-7', () => {
    const scopedDeny = scenarioOf({ pre: [{ ...deny, scope: 'A' }, allow], calls: [{ tool: 'lookup', args: {}, agent: 'A' }] })
    expect(checksOf(scopedDeny, traceOf([...preRan(1), ...bodyRan(), settled()], record(success(1))))).toEqual(['PRE-1:routing/hook-order'])
  })
  it('PRE-7: a listener out of scope that decided leaves only PRE-7', () => {
    const otherScope = scenarioOf({ pre: [{ ...deny, scope: 'B' }], calls: [{ tool: 'lookup', args: {}, agent: 'A' }] })
    expect(checksOf(otherScope, traceOf([...preRan(0), settled()], record(failure())))).toEqual(['PRE-7:routing/hook-out-of-scope'])
  })
})

const acceptValue = { timing: 'sync' as const, decision: { kind: 'returns' as const, value: { kind: 'accept', value: 2 } } }
const delegate = { timing: 'sync' as const, decision: { kind: 'delegate' as const } }
const postRan = (isError: boolean) => [enter('post', { resultFrozen: true, isError }), leave('post')]

describe('the stage that turned an error into a success (E2)', () => {
  it('PST-2: post-execute handed a denial publishes a success: PST-2 alone, not the PRE-2 of the denial', () => {
    const denied = scenarioOf({ pre: [deny], post: [acceptValue] })
    expect(checksOf(denied, traceOf([...preRan(0), ...postRan(true), settled()], record(failure())))).toEqual([])
    expect(checksOf(denied, traceOf([...preRan(0), ...postRan(true), settled()], record(success(2))))).toEqual(['PST-2:hostile/post-resurrects'])
  })

  it('FIN-3: a finalizer handed the failure post-execute kept makes it a success: not PST-2', () => {
    const made = { isError: false, value: 2, content: [{ type: 'text', text: '2' }] }
    const merging = scenarioOf({
      tools: [tool({ body: { steps: [], outcome: { kind: 'throw', thrown: { message: 'no' } } }, finalize: { kind: 'returns', value: made } })],
      post: [delegate],
    })
    const handed = enter('finalize', { resultFrozen: true, isError: true, detail: JSON.stringify(failure()) })
    const events = [...bodyRan(), ...postRan(true), handed, leave('finalize'), settled()]
    expect(checksOf(merging, traceOf(events, record(success(2))))).not.toContain('PST-2:hostile/post-resurrects')
    expect(checksOf(merging, traceOf(events, record(success(2))))).toContain('FIN-3:hostile/finalizer-resurrects')
  })

  it('OUT-2: a value replacement predicted on a failure (PST-2) meets post-execute handed a success: the failure upstream is blamed', () => {
    const throwingRender = scenarioOf({ tools: [tool({ render: { kind: 'throws' } })], post: [acceptValue] })
    expect(checksOf(throwingRender, traceOf([...bodyRan(), ...postRan(true), settled()], record(failure())))).toEqual([])
    const swallowed = traceOf([...bodyRan(), ...postRan(false), settled()], record(success(2, { content: [] })))
    expect(checksOf(throwingRender, swallowed)).toEqual(['OUT-2:outcome/kind'])
  })
})

describe('content and meta filed under the stage that set them (E3)', () => {
  const blocks = [{ type: 'text', text: 'replaced' }]
  const acceptContent = { timing: 'sync' as const, decision: { kind: 'returns' as const, value: { kind: 'accept', content: blocks } } }
  it('PST-1: content post-execute put in place on a failure is PST-1\'s, not PST-2\'s', () => {
    const thrown = scenarioOf({ tools: [tool({ body: { steps: [], outcome: { kind: 'throw', thrown: { message: 'no' } } } })], post: [acceptContent] })
    const events = [...bodyRan(), ...postRan(true), settled()]
    expect(checksOf(thrown, traceOf(events, record(failure({ content: blocks }))))).toEqual([])
    expect(checksOf(thrown, traceOf(events, record(failure())))).toEqual(['PST-1:outcome/content'])
  })

  it('OUT-2: a content-only accept keeps the body\'s meta, whose clause is OUT-2', () => {
    const metered = scenarioOf({ tools: [tool({ meta: { kind: 'json-text' } })], post: [acceptContent] })
    const events = [...bodyRan(), ...postRan(false), settled()]
    expect(checksOf(metered, traceOf(events, record(success(1, { content: blocks, meta: { size: 1 } }))))).toEqual([])
    expect(checksOf(metered, traceOf(events, record(success(1, { content: blocks }))))).toEqual(['OUT-2:outcome/meta-value'])
  })

  it('PST-1: the meta of a value post-execute replaced is PST-1\'s', () => {
    const replaced = scenarioOf({ tools: [tool({ meta: { kind: 'json-text' } })], post: [acceptValue] })
    const events = [...bodyRan(), ...postRan(false), settled()]
    expect(checksOf(replaced, traceOf(events, record(success(2, { meta: { size: 1 } }))))).toEqual([])
    expect(checksOf(replaced, traceOf(events, record(success(2))))).toEqual(['PST-1:outcome/meta-value'])
  })
})

describe('one fault, one verdict after a write on a handed result', () => {
  const accept = { timing: 'sync' as const, decision: { kind: 'returns' as const, value: { kind: 'accept' } } }
  const thrown = scenarioOf({ tools: [tool({ body: { steps: [], outcome: { kind: 'throw', thrown: { message: 'no' } } } })], post: [accept] })
  const wrote = (changed: string[]) => [
    ...bodyRan(),
    enter('post', { resultFrozen: false, isError: true }),
    { ev: 'attack' as const, stage: 'post' as const, call: 'c0', target: 'result' as const, changed },
    leave('post'),
    settled(),
  ]
  it('PST-1, PST-2: a listener that flipped the isError of the failure it was handed, published as a success, fails both', () => {
    expect(checksOf(thrown, traceOf(wrote(['isError', 'value']), record(success(2))))).toEqual([
      'PST-1:immutability/result-not-frozen',
      'PST-1:hostile/result-written',
      'PST-2:hostile/post-resurrects',
    ])
  })
  it('PST-1: a write that left isError alone keeps the case to PST-1', () => {
    expect(checksOf(thrown, traceOf(wrote(['content']), record(failure({ content: [] }))))).toEqual([
      'PST-1:immutability/result-not-frozen',
      'PST-1:hostile/result-written',
    ])
  })
})

describe('cancellation (E4, E5)', () => {
  it('FIN-4: an abort after the call settled (a sibling sharing its callId) changes nothing: not CAN-3', () => {
    const throwing = scenarioOf({ tools: [tool({ finalize: { kind: 'throws' } })] })
    const finalized = enter('finalize', { resultFrozen: true, isError: false, detail: JSON.stringify(success(1)) })
    const events = [...bodyRan(), finalized, leave('finalize'), settled(), abort()]
    expect(checksOf(throwing, traceOf(events, record(failure())))).toEqual([])
    expect(checksOf(throwing, traceOf(events, record(success(1))))).toEqual(['FIN-4:outcome/kind'])
  })

  it('PRE-6: a denial the registry never awaited (it settled while the listener was pending) is not CAN-4\'s', () => {
    const pendingDeny = scenarioOf({ pre: [{ ...deny, timing: 'await' }], calls: [{ tool: 'lookup', args: {}, abortScheduled: true }] })
    const abandoned = traceOf([enter('pre'), abort(), settled(), leave('pre')], record(failure(), { code: 'ABORTED' }))
    expect(checksOf(pendingDeny, abandoned)).toEqual(['PRE-6:cancellation/settled-during-pre'])
  })
})

describe('code mode (E6)', () => {
  const both = scenarioOf({ config: { mode: 'code' }, calls: [{ tool: 'lookup', args: {}, fakeParent: true }, { tool: 'lookup', args: {} }] })
  const reached = (call: string) => [
    enter('body', { call, token: Number(call.slice(1)) + 1, detail: JSON.stringify({ tool: 'lookup', name: 'lookup', args: {} }) }),
    leave('body', 0, call),
    settled(call),
  ]
  const results = [record(success(1)), record(success(1), { callId: 'c1' })]
  it('CODE-1: a fake parent that ends like the parent-less call, both reaching the tool, is CODE-1\'s fault, not CODE-5\'s', () => {
    const checks = checksOf(both, traceOf([...reached('c0'), ...reached('c1')], ...results))
    expect(checks.length).toBeGreaterThan(0)
    expect(checks.filter((c) => !c.startsWith('CODE-1:'))).toEqual([])
  })
  it('CODE-5: a fake parent that reaches the tool while the parent-less call ends UNKNOWN_TOOL fails CODE-5', () => {
    const checks = checksOf(both, traceOf([...reached('c0'), settled('c1')], record(success(1)), record(failure(), { callId: 'c1', code: 'UNKNOWN_TOOL' })))
    expect(checks.length).toBeGreaterThan(0)
    expect(checks.filter((c) => !c.startsWith('CODE-5:'))).toEqual([])
  })
})

describe('DEF-5 and SCP-2 filed before what they let happen (E8–E10)', () => {
  const strict = tool({ define: true, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } })
  it('DEF-5: a body run on refused arguments is DEF-5\'s, though the finalizer decided the outcome (not FIN-4)', () => {
    const finalizerThrows = scenarioOf({ tools: [{ ...strict, finalize: { kind: 'throws' } }] })
    const events = [...bodyRan(), enter('finalize', { resultFrozen: true, isError: false }), leave('finalize'), settled()]
    const checks = checksOf(finalizerThrows, traceOf(events, record(failure())))
    expect(checks).toContain('DEF-5:routing/body-count')
    expect(checks.filter((c) => c.endsWith('/body-count'))).toEqual(['DEF-5:routing/body-count'])
  })
  it('DEF-5: executionMode of an ill-typed call with refused arguments is DEF-5\'s, not MODE-2\'s', () => {
    const tools = [{ ...strict, classifier: { kind: 'returns' as const, value: true } }]
    const safe = scenarioOf({ tools, calls: [{ tool: 'lookup', args: {}, malformed: 'no-signal' }] })
    expect(checksOf(safe, traceOf([settled()], record(failure(), { mode: 'parallel' })))).toEqual(['DEF-5:entry/execution-mode'])
  })
  it('SCP-2: a guard out of scope that denied leaves only SCP-2 (not the outcome the call should have had)', () => {
    const otherScope = scenarioOf({ guards: [{ verdict: { kind: 'returns', value: 'no' }, scope: 'B' }], calls: [{ tool: 'lookup', args: {}, agent: 'A' }] })
    const events = [enter('guard'), leave('guard'), settled()]
    expect(checksOf(otherScope, traceOf(events, record(failure())))).toEqual(['SCP-2:routing/hook-out-of-scope'])
  })
})

describe('a finalizer that never ran (E11)', () => {
  it('FIN-2: the content it should have put in place is the finalize count\'s finding, not FIN-3\'s', () => {
    const replacing = scenarioOf({ tools: [tool({ finalize: { kind: 'returns', value: [{ type: 'text', text: 'final' }] } })] })
    expect(checksOf(replacing, traceOf([...bodyRan(), settled()], record(success(1))))).toEqual(['FIN-2:delivery/finalize-count', 'FIN-2:outcome/content'])
  })
})
