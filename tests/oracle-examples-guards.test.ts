// The oracle on hand-written guard traces. GRD-1 fixes no order among guards and names no deciding
// guard: any order, each guard in scope at most once, stopping at a denial or running on, conforms;
// the deciding guard is one that ran and denied or threw, and its routing row fixes post-execute.
import { describe, expect, it } from 'vitest'
import { bodyRan, checksOf, enter, failure, leave, record, scenarioOf, settled, success, traceOf } from './oracle-example-traces.js'

const denies = { verdict: { kind: 'returns' as const, value: 'no' } }
const passes = { verdict: { kind: 'pass' as const } }
const throws = { verdict: { kind: 'throws' as const } }
const delegate = { timing: 'sync' as const, decision: { kind: 'delegate' as const } }
const guardRan = (...indexes: number[]) => indexes.flatMap((index) => [enter('guard', { index }), leave('guard', index)])
const postRan = () => [enter('post', { resultFrozen: true, isError: true }), leave('post')]

describe('GRD-1: guards in any order', () => {
  it('GRD-1: the guards after the first denial may run too; the denial stands', () => {
    const twoDenials = scenarioOf({ guards: [denies, denies] })
    expect(checksOf(twoDenials, traceOf([...guardRan(0), settled()], record(failure())))).toEqual([])
    expect(checksOf(twoDenials, traceOf([...guardRan(0, 1), settled()], record(failure())))).toEqual([])
    expect(checksOf(twoDenials, traceOf([...guardRan(1, 0), settled()], record(failure())))).toEqual([])
  })
  it('GRD-1: reverse registration order, stopping at the first denial in that order', () => {
    expect(checksOf(scenarioOf({ guards: [passes, denies] }), traceOf([...guardRan(1), settled()], record(failure())))).toEqual([])
    expect(checksOf(scenarioOf({ guards: [denies, passes] }), traceOf([...guardRan(1, 0), settled()], record(failure())))).toEqual([])
  })
  it('GRD-1: guards that all pass may run in any order before the body', () => {
    const twoPasses = scenarioOf({ guards: [passes, passes] })
    expect(checksOf(twoPasses, traceOf([...guardRan(1, 0), ...bodyRan(), settled()], record(success(1))))).toEqual([])
  })
  it('GRD-1: a guard that ran twice, or a run that skipped a guard with no denial in it', () => {
    const denyThenPass = scenarioOf({ guards: [denies, passes] })
    expect(checksOf(denyThenPass, traceOf([...guardRan(0, 0), settled()], record(failure())))).toEqual(['GRD-1:routing/hook-twice'])
    const twoPasses = scenarioOf({ guards: [passes, passes] })
    expect(checksOf(twoPasses, traceOf([...guardRan(1), ...bodyRan(), settled()], record(success(1))))).toEqual(['GRD-1:routing/hook-order'])
  })
  it('SCP-2: a guard out of scope that ran', () => {
    const scoped = scenarioOf({ guards: [{ ...denies, scope: 'B' }, passes], calls: [{ tool: 'lookup', args: {}, agent: 'A' }] })
    expect(checksOf(scoped, traceOf([...guardRan(1, 0), settled()], record(failure())))).toContain('SCP-2:routing/hook-out-of-scope')
  })
})

describe('GRD-1, GRD-3: the deciding guard', () => {
  const throwThenDeny = scenarioOf({ guards: [throws, denies], post: [delegate] })
  it('GRD-1: all guards started together, a denial outranking a throw: post-execute may see the denial', () => {
    expect(checksOf(throwThenDeny, traceOf([...guardRan(0, 1), ...postRan(), settled()], record(failure())))).toEqual([])
    expect(checksOf(throwThenDeny, traceOf([...guardRan(1), ...postRan(), settled()], record(failure())))).toEqual([])
  })
  it('GRD-3: a throw decided when no guard that ran denied: post-execute must not run', () => {
    expect(checksOf(throwThenDeny, traceOf([...guardRan(0), settled()], record(failure())))).toEqual([])
    expect(checksOf(throwThenDeny, traceOf([...guardRan(0), ...postRan(), settled()], record(failure())))).toEqual(['GRD-3:routing/post-bypassed'])
  })
})
