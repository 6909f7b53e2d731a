/**
 * One clause, two kinds of case: scenarios judged by the routing oracle, and a direct check of a
 * rule a scenario cannot express (an outer listener that awaits next() and then decides itself).
 * The result is one property, so the clause keeps one verdict. A scenario case stays a plain
 * scenario (replay validates it as one); a direct case is `{ direct: … }`.
 */
import fc from 'fast-check'
import type { ConformanceProperty } from '../harness/property/property.js'
import { DIRECT_CASE_PROPERTIES, SCENARIO_PROPERTIES } from '../harness/property/scenario-property.js'
import { type Scenario } from '../harness/property/vocabulary.js'

export type EitherCase<D> = Scenario | { direct: D }

const isDirect = <D>(c: EitherCase<D>): c is { direct: D } => typeof c === 'object' && c !== null && 'direct' in c && !('version' in c)

export function withDirect<D>(
  judged: ConformanceProperty<Scenario>,
  direct: ConformanceProperty<D>,
  weights = { scenario: 3, direct: 1 },
): ConformanceProperty<EitherCase<D>> {
  if (judged.id !== direct.id) throw new Error(`withDirect(): ${judged.id} and ${direct.id} are different clauses`)
  const property: ConformanceProperty<EitherCase<D>> = {
    ...judged,
    arbitrary: fc.oneof(
      { weight: weights.scenario, arbitrary: judged.arbitrary as fc.Arbitrary<EitherCase<D>> },
      { weight: weights.direct, arbitrary: direct.arbitrary.map((d): EitherCase<D> => ({ direct: d })) },
    ),
    run: (adapter, testCase, scheduler) => (isDirect(testCase) ? direct.run(adapter, testCase.direct, scheduler) : judged.run(adapter, testCase, scheduler)),
    story: (testCase) => (isDirect(testCase) ? ['a direct check:', ...(direct.story?.(testCase.direct) ?? [])] : (judged.story?.(testCase) ?? [])),
  }
  SCENARIO_PROPERTIES.add(property as ConformanceProperty)
  DIRECT_CASE_PROPERTIES.add(property as ConformanceProperty)
  return property
}
