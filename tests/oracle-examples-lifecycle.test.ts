// The oracle on hand-written traces: hooks that dispose of themselves, and an agent's hooks standing in for global ones.
import { describe, expect, it } from 'vitest'
import { bodyRan, checksOf, enter, leave, record, scenarioOf, settled, success, traceOf } from './oracle-example-traces.js'

const delegate = { timing: 'sync' as const, decision: { kind: 'delegate' as const } }
const preRan = (index: number, call = 'c0') => [enter('pre', { index, call, token: call === 'c0' ? 1 : 2 }), leave('pre', index, call)]
const bodyOf = (call: string) => bodyRan({ call, token: call === 'c0' ? 1 : 2 }).map((e) => (e.ev === 'leave' ? { ...e, call } : e))
const twoCalls = [{ tool: 'lookup', args: {} }, { tool: 'lookup', args: {} }]
const ranBoth = (first: number[], second: number[]) => [
  ...first.flatMap((i) => preRan(i)), ...bodyOf('c0'), settled(),
  ...second.flatMap((i) => preRan(i, 'c1')), ...bodyOf('c1'), settled('c1'),
]
const results = [record(success(1)), record(success(1), { callId: 'c1' })]

describe('a hook that disposes of itself when first entered', () => {
  const disposing = scenarioOf({ pre: [{ ...delegate, disposesSelf: true }, delegate], calls: twoCalls })
  it('conforms when the later call no longer runs it', () => {
    expect(checksOf(disposing, traceOf(ranBoth([0, 1], [1]), ...results))).toEqual([])
  })
  it('PRE-1: the later call runs it again', () => {
    expect(checksOf(disposing, traceOf(ranBoth([0, 1], [0, 1]), ...results))).toEqual(['PRE-1:routing/hook-disposed'])
  })
  it('PRE-1: the call that disposed of it skips the listener after it', () => {
    expect(checksOf(disposing, traceOf(ranBoth([0], [1]), ...results))).toEqual(['PRE-1:routing/hook-order'])
  })
})

describe('global hooks for an agent that has its own', () => {
  it('PRE-7: a global listener skipped while the agent\'s own ran', () => {
    const both = scenarioOf({ pre: [delegate, { ...delegate, scope: 'A' }], calls: [{ tool: 'lookup', args: {}, agent: 'A' }] })
    expect(checksOf(both, traceOf([...preRan(1), ...bodyRan(), settled()], record(success(1))))).toEqual(['PRE-7:routing/hook-order'])
  })
})
