/**
 * The cases one property runs on one adapter, fitted alike whether generated or read back from
 * the regression corpus: a scenario is cut to the adapter's profiles and seams (fit-scenario.ts).
 * A corpus case saved for another adapter, or by another toolreg, is run cut the same way; one
 * that is not a case of the property, or no valid scenario, is skipped: the corpus only adds cases.
 */
import type fc from 'fast-check'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { fitScenario, takesEveryScenario } from '../fit-scenario.js'
import { documentValidator, type DocumentValidator } from '../json-schema.js'
import type { ConformanceProperty } from '../property/property.js'
import { DIRECT_CASE_PROPERTIES, SCENARIO_PROPERTIES } from '../property/scenario-property.js'
import { SCENARIO_SCHEMA } from '../scenario/scenario-schema.js'
import type { Scenario } from '../scenario/types.js'

const isScenario = (c: unknown): c is Scenario => typeof c === 'object' && c !== null && 'version' in c && Array.isArray((c as Scenario).tools)
const isDirect = (c: unknown): boolean => typeof c === 'object' && c !== null && 'direct' in c && !('version' in c)

/** A scenario property's generated cases, fitted to the adapter. */
export function arbitraryFor(property: ConformanceProperty, adapter: ConformanceAdapter): fc.Arbitrary<unknown> {
  if (!SCENARIO_PROPERTIES.has(property) || takesEveryScenario(adapter)) return property.arbitrary
  // Direct cases (suites/with-direct.ts) drive hooks a scenario cannot express: a seam declaration runs none.
  if (adapter.seams !== undefined) return property.arbitrary.filter(isScenario).map((scenario) => fitScenario(scenario, adapter))
  return property.arbitrary.map((c) => (isScenario(c) ? fitScenario(c, adapter) : c))
}

/** Corpus cases as the property would have generated them for the adapter; the others left out. */
export function fitExamples<E extends { testCase: unknown }>(property: ConformanceProperty, adapter: ConformanceAdapter, examples: readonly E[]): E[] {
  if (!SCENARIO_PROPERTIES.has(property)) return [...examples]
  return examples.flatMap((example) => {
    const testCase = fitCase(property, adapter, example.testCase)
    return testCase === undefined ? [] : [{ ...example, testCase }]
  })
}

function fitCase(property: ConformanceProperty, adapter: ConformanceAdapter, testCase: unknown): unknown {
  if (isDirect(testCase)) return DIRECT_CASE_PROPERTIES.has(property) && adapter.seams === undefined ? testCase : undefined
  if (!isScenario(testCase) || !validScenario()(testCase)) return undefined
  return fitScenario(testCase, adapter)
}

// Compiled on first use: only a run that reads scenario cases from a corpus pays for it.
let validator: DocumentValidator | undefined
const validScenario = () => (validator ??= documentValidator(SCENARIO_SCHEMA))
