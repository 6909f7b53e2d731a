/** Properties judged by the routing oracle: run the scenario, judge its trace. */
import type fc from 'fast-check'
import type { Profile } from '../adapter.js'
import { clauseById } from '../clauses.js'
import { judge } from '../oracle/judge.js'
import { runScenario } from '../scenario/interpret.js'
import type { Scenario } from '../scenario/types.js'
import type { CaseOutcome, ConformanceProperty } from './property.js'
import type { ConformanceAdapter } from '../adapter.js'

/** The per-case time budget: a hung implementation is a failure naming its stage, not a hung run. */
export const CASE_BUDGET_MS = 1000

export async function runJudged(adapter: ConformanceAdapter, scenario: Scenario, scheduler?: fc.Scheduler): Promise<CaseOutcome> {
  const trace = await runScenario(adapter, scenario, { ...(scheduler ? { scheduler } : {}), budgetMs: CASE_BUDGET_MS })
  if (trace.adapterError) return { violations: [], trace, adapterError: trace.adapterError }
  if (trace.refused) return { violations: [], trace, refused: trace.refused }
  return { violations: judge(scenario, trace), trace }
}

/** Properties whose cases are scenarios (their replay files are validated as scenarios). */
export const SCENARIO_PROPERTIES = new WeakSet<ConformanceProperty>()

/** A property whose case is a scenario and whose verdict is the oracle's, for its clause. */
export function judged(id: string, rule: string, arbitrary: fc.Arbitrary<Scenario>, profile?: Profile): ConformanceProperty<Scenario> {
  const clause = clauseById.get(id)
  if (!clause || clause.level === 'claim') throw new Error(`judged(): ${id} is not a certifiable clause`)
  const property: ConformanceProperty<Scenario> = {
    id,
    level: clause.level,
    profile: profile ?? clause.profile,
    title: `${id} ${rule}`,
    arbitrary,
    run: (adapter, scenario, scheduler) => runJudged(adapter, scenario, scheduler),
  }
  SCENARIO_PROPERTIES.add(property as ConformanceProperty)
  return property
}
