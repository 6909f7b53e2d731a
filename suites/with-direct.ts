/**
 * One clause, two kinds of case: scenarios judged by the routing oracle, and a direct check of a
 * rule a scenario cannot express (an outer listener that awaits next() and then decides itself).
 * The result is one property, so the clause keeps one verdict; a case names which kind it is.
 */
import fc from 'fast-check'
import type { ConformanceProperty } from '../harness/runner/property.js'

export type EitherCase<S, D> = { scenario: S } | { direct: D }

export function withDirect<S, D>(judged: ConformanceProperty<S>, direct: ConformanceProperty<D>, weights = { scenario: 3, direct: 1 }): ConformanceProperty<EitherCase<S, D>> {
  if (judged.id !== direct.id) throw new Error(`withDirect(): ${judged.id} and ${direct.id} are different clauses`)
  return {
    ...judged,
    arbitrary: fc.oneof(
      { weight: weights.scenario, arbitrary: judged.arbitrary.map((scenario) => ({ scenario })) },
      { weight: weights.direct, arbitrary: direct.arbitrary.map((d) => ({ direct: d })) },
    ),
    run: (adapter, testCase, scheduler) =>
      'scenario' in testCase ? judged.run(adapter, testCase.scenario, scheduler) : direct.run(adapter, testCase.direct, scheduler),
  }
}
