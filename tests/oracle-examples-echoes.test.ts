// The oracle on hand-written traces: a legal branch the judge must accept (GRD-1's guards that run
// on past the first denial), and echoes — checks keyed on what an earlier broken rule let happen,
// which are void in that case (one fault, one verdict).
import { describe, expect, it } from 'vitest'
import { bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, traceOf } from './oracle-example-traces.js'

const denies = { verdict: { kind: 'returns' as const, value: 'no' } }
const guardRan = (index: number) => [enter('guard', { index }), leave('guard', index)]

describe('guards', () => {
  const twoDenials = scenarioOf({ guards: [denies, denies] })
  it('GRD-1: the guards after the first denial may run too; the denial stands', () => {
    expect(checksOf(twoDenials, traceOf([...guardRan(0), settled()], record(failure())))).toEqual([])
    expect(checksOf(twoDenials, traceOf([...guardRan(0), ...guardRan(1), settled()], record(failure())))).toEqual([])
  })
  it('GRD-1: a guard past the denial that runs out of order, or a body after it, still fails GRD-1', () => {
    expect(checksOf(twoDenials, traceOf([...guardRan(1), ...guardRan(0), settled()], record(failure())))).toEqual(['GRD-1:routing/hook-order'])
    expect(checksOf(twoDenials, traceOf([...guardRan(0), ...guardRan(1), ...bodyRan(), settled()], record(success(1))))).toEqual([
      'GRD-1:routing/body-count',
      'GRD-1:outcome/kind',
    ])
  })
})

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
