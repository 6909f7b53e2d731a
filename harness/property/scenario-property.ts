/** Properties judged by the routing oracle: run the scenario, judge its trace. */
import type fc from 'fast-check'
import type { Profile } from '../contract/adapter.js'
import { clauseById } from '../contract/clauses.js'
import { judge } from '../oracle/judge.js'
import { runScenario } from '../scenario/interpret.js'
import type { Scenario } from '../scenario/types.js'
import { withSharedReaches } from '../arbitraries/shared-reaches.js'
import { scenarioStory } from '../scenario/story.js'
import type { CaseOutcome, ConformanceProperty } from './property.js'
import type { ConformanceAdapter } from '../contract/adapter.js'
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'
import { HarnessError, ImplementationFault, readingRunsCode, readOnce } from '../safe/safe-read.js'

/** The per-case time budget: a hung implementation is a failure naming its stage, not a hung run. */
export const CASE_BUDGET_MS = 1000

export async function runJudged(adapter: ConformanceAdapter, scenario: Scenario, scheduler?: fc.Scheduler): Promise<CaseOutcome> {
  const trace = await runScenario(adapter, scenario, { ...(scheduler ? { scheduler } : {}), budgetMs: CASE_BUDGET_MS })
  if (trace.adapterError) return { violations: [], trace, adapterError: trace.adapterError }
  if (trace.refused) return { violations: [], trace, refused: trace.refused }
  const { judgedTrace, unreadable } = readPublishedOnce(trace)
  let violations: Violation[]
  try {
    violations = judge(scenario, judgedTrace)
  } catch (error) {
    if (error instanceof ImplementationFault) violations = [{ clause: error.clause ?? 'META-1', detail: error.detail }]
    else throw new HarnessError('the oracle threw', error)
  }
  for (const [call, problems] of unreadable) {
    if (!violations.some((v) => v.call === call && v.clause === 'META-1')) {
      violations.push({
        clause: 'META-1',
        call,
        check: 'META-1:published-outcome-runs-code',
        detail: `the published outcome is not lossless JSON: ${problems.slice(0, 3).join('; ')}`,
      })
    }
  }
  return { violations, trace }
}

const RESULT_KEYS = ['isError', 'content', 'value', 'error', 'meta', 'additionalContexts', 'concludesTurn']

/**
 * Published results whose reading runs implementation code (getters, Proxies) are judged on a
 * copy read once, so no getter runs twice and no trap throws inside the oracle; where the copy
 * met a getter or a throwing trap, the outcome was not lossless JSON (META-1).
 */
function readPublishedOnce(trace: Trace): { judgedTrace: Trace; unreadable: Map<string, string[]> } {
  const unreadable = new Map<string, string[]>()
  let changed = false
  const calls = trace.calls.map((record) => {
    if (!record?.result || !readingRunsCode(record.result)) return record
    const problems: string[] = []
    const copy = readOnce(record.result, problems, '$', new Map(), RESULT_KEYS) as typeof record.result
    if (problems.length > 0) unreadable.set(record.callId, problems)
    changed = true
    return { ...record, result: copy, observed: record.observed.map((o) => (o === record.result ? copy : o)) }
  })
  return { judgedTrace: changed ? { ...trace, calls } : trace, unreadable }
}

/** Properties whose cases are scenarios (their replay files are validated as scenarios). */
export const SCENARIO_PROPERTIES = new WeakSet<ConformanceProperty>()

/** Scenario properties that also take direct cases, `{ direct: … }` (suites/with-direct.ts). */
export const DIRECT_CASE_PROPERTIES = new WeakSet<ConformanceProperty>()

/**
 * A property whose case is a scenario and whose verdict is the oracle's, for its clause. Every one
 * also draws, last, the reaches every scenario shares (arbitraries/shared-reaches.ts).
 */
export function judged(id: string, rule: string, arbitrary: fc.Arbitrary<Scenario>, profile?: Profile): ConformanceProperty<Scenario> {
  const clause = clauseById.get(id)
  if (!clause || clause.level === 'claim') throw new Error(`judged(): ${id} is not a certifiable clause`)
  const property: ConformanceProperty<Scenario> = {
    id,
    level: clause.level,
    profile: profile ?? clause.profile,
    title: `${id} ${rule}`,
    arbitrary: withSharedReaches(arbitrary),
    run: (adapter, scenario, scheduler) => runJudged(adapter, scenario, scheduler),
    story: scenarioStory,
  }
  SCENARIO_PROPERTIES.add(property as ConformanceProperty)
  return property
}
