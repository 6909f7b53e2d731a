/** Which clauses' properties run scenarios, read from the suites (for `replay`, which has them loaded anyway). */
import { isScenarioCaseOf } from '../report/scenario-case.js'
import { SCENARIO_PROPERTIES } from '../property/scenario-property.js'
import { PROPERTIES } from '../../suites/index.js'

export const isScenarioClause = (clause: string) => PROPERTIES.some((p) => p.id === clause && SCENARIO_PROPERTIES.has(p))

export const isScenarioCase = (clause: string, testCase: unknown) => isScenarioCaseOf(isScenarioClause(clause), testCase)
