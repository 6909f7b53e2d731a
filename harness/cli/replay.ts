/** `toolreg replay`: re-run exactly one saved counterexample (its case and its schedule). */
import { readCounterexample } from '../runner/counterexample.js'
import { replayScheduler } from '../runner/replay-scheduler.js'
import { loadAdapter } from '../runner/load-adapter.js'
import { violationsOf } from '../runner/property.js'
import { SCENARIO_PROPERTIES } from '../runner/scenario-property.js'
import { PROPERTIES } from '../../suites/index.js'
import { underWatchdog } from '../runner/watchdog-alone.js'
import { UsageError } from './usage.js'
import { explainFailure } from '../report/explain.js'

export async function replay(file: string | undefined, adapterPath: string | undefined): Promise<number> {
  if (!file) throw new UsageError('replay needs a counterexample file: toolreg replay <file.json>')
  const ce = await readCounterexample(file, (clause) => PROPERTIES.some((p) => p.id === clause && SCENARIO_PROPERTIES.has(p)))
  const property = PROPERTIES.find((p) => p.id === ce.clause)
  if (!property) throw new UsageError(`${file}: no property checks clause ${ce.clause}`)
  const adapter = await loadAdapter(adapterPath)
  const outcome = await underWatchdog(ce.clause, property.title, () => property.run(adapter, ce.case, replayScheduler(ce.schedule)))
  if (outcome.adapterError) {
    console.error(`adapter error: ${outcome.adapterError}`)
    return 2
  }
  const violations = violationsOf(property, outcome)
  if (violations.length === 0) {
    console.log(`${property.id} passes on this scenario with ${adapter.name}`)
    return 0
  }
  console.log(`${property.title}\n  still violated with ${adapter.name}:`)
  const isScenario = SCENARIO_PROPERTIES.has(property)
  console.log(explainFailure({ clause: ce.clause, violations, testCase: ce.case, isScenario, trace: outcome.trace, seed: ce.seed, path: ce.path }))
  return 1
}
