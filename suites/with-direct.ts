/**
 * One clause, two kinds of case: scenarios judged by the routing oracle, and a direct check of a
 * rule a scenario cannot express (an outer listener that awaits next() and then decides itself).
 * The result is one property, so the clause keeps one verdict. A scenario case stays a plain
 * scenario (replay validates it as one); a direct case is `{ direct: … }`.
 */
import fc from 'fast-check'
import type { CaseOutcome, ConformanceProperty } from '../harness/property/property.js'
import { DIRECT_CASE_PROPERTIES, SCENARIO_PROPERTIES } from '../harness/property/scenario-property.js'
import { type Scenario } from '../harness/property/vocabulary.js'

export type EitherCase<D> = Scenario | { direct: D }

/**
 * Weights drawn first, or a direct case in one of `everyLast`, chosen after the scenario was drawn
 * (a direct check added to a clause without moving its scenarios' draws).
 */
type Mix = { scenario: number; direct: number } | { everyLast: number }

// The direct case is chosen on the largest draw, not the smallest: fast-check biases small cases towards 0, which
// nowAndThen's reaches take, so a direct case chosen on 0 would replace the very cases those reaches changed.
const directLast = <D>(scenarios: fc.Arbitrary<Scenario>, direct: fc.Arbitrary<D>, every: number): fc.Arbitrary<EitherCase<D>> =>
  scenarios.chain((s) => fc.tuple(fc.noShrink(fc.nat(every - 1)), direct).map(([k, d]): EitherCase<D> => (k === every - 1 ? { direct: d } : s)))

const isDirect = <D>(c: EitherCase<D>): c is { direct: D } => typeof c === 'object' && c !== null && 'direct' in c && !('version' in c)

export function withDirect<D>(
  judged: ConformanceProperty<Scenario>,
  direct: ConformanceProperty<D>,
  mix: Mix = { scenario: 3, direct: 1 },
): ConformanceProperty<EitherCase<D>> {
  if (judged.id !== direct.id) throw new Error(`withDirect(): ${judged.id} and ${direct.id} are different clauses`)
  const property: ConformanceProperty<EitherCase<D>> = {
    ...judged,
    arbitrary: 'everyLast' in mix
      ? directLast(judged.arbitrary, direct.arbitrary, mix.everyLast)
      : fc.oneof(
        { weight: mix.scenario, arbitrary: judged.arbitrary as fc.Arbitrary<EitherCase<D>> },
        { weight: mix.direct, arbitrary: direct.arbitrary.map((d): EitherCase<D> => ({ direct: d })) },
      ),
    run: (adapter, testCase, scheduler) => (isDirect(testCase) ? direct.run(adapter, testCase.direct, scheduler) : judged.run(adapter, testCase, scheduler)),
    story: (testCase) => (isDirect(testCase) ? ['a direct check:', ...(direct.story?.(testCase.direct) ?? [])] : (judged.story?.(testCase) ?? [])),
  }
  SCENARIO_PROPERTIES.add(property as ConformanceProperty)
  DIRECT_CASE_PROPERTIES.add(property as ConformanceProperty)
  return property
}

/**
 * A direct check of one fixed case, run after every scenario case that found nothing, on a registry
 * of its own: it takes no share from the scenarios (each is drawn and judged as before), and a
 * saved scenario replays with it. Like every direct case, it runs only where the adapter declares
 * no seams (a seam declaration runs the scenarios alone).
 */
export function alongside<C, D>(judged: ConformanceProperty<C>, direct: ConformanceProperty<D>, fixed: D): ConformanceProperty<C> {
  if (judged.id !== direct.id) throw new Error(`alongside(): ${judged.id} and ${direct.id} are different clauses`)
  const property: ConformanceProperty<C> = {
    ...judged,
    async run(adapter, testCase, scheduler) {
      const outcome = await judged.run(adapter, testCase, scheduler)
      if (adapter.seams !== undefined || settled(outcome)) return outcome
      return direct.run(adapter, fixed, scheduler)
    },
    story: (testCase) => [
      ...(judged.story?.(testCase) ?? []),
      'then, if that found nothing and the adapter declares no seams, on a registry of its own:', ...(direct.story?.(fixed) ?? []),
    ],
  }
  SCENARIO_PROPERTIES.add(property as ConformanceProperty)
  if (DIRECT_CASE_PROPERTIES.has(judged as ConformanceProperty)) DIRECT_CASE_PROPERTIES.add(property as ConformanceProperty)
  return property
}

const settled = (outcome: CaseOutcome) => outcome.violations.length > 0 || outcome.adapterError !== undefined || outcome.implementationEnded

/**
 * Two direct checks of one clause run in every direct case, one after the other, each on its own
 * registry (the second only when the first found nothing): both keep the whole direct share. A case
 * saved before the second check joined (the first's alone) still replays, as the first's.
 */
export function bothDirect<A, B>(first: ConformanceProperty<A>, second: ConformanceProperty<B>): ConformanceProperty<Both<A, B> | A> {
  if (first.id !== second.id) throw new Error(`bothDirect(): ${first.id} and ${second.id} are different clauses`)
  const isBoth = (c: Both<A, B> | A): c is Both<A, B> => typeof c === 'object' && c !== null && 'both' in c
  return {
    ...first,
    arbitrary: fc.tuple(first.arbitrary, second.arbitrary).map((both): Both<A, B> | A => ({ both })),
    async run(adapter, testCase, scheduler) {
      if (!isBoth(testCase)) return first.run(adapter, testCase, scheduler)
      const [a, b] = testCase.both
      const outcome = await first.run(adapter, a, scheduler)
      return settled(outcome) ? outcome : second.run(adapter, b, scheduler)
    },
    story: (testCase) => {
      if (!isBoth(testCase)) return first.story?.(testCase) ?? []
      const [a, b] = testCase.both
      return [...(first.story?.(a) ?? []), 'then, on a new registry:', ...(second.story?.(b) ?? [])]
    },
  }
}

interface Both<A, B> { both: [A, B] }
