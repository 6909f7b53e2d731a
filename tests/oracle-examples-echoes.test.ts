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
