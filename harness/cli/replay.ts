/** `toolreg replay`: re-run exactly one saved counterexample (its case and its schedule). */
import type { ConformanceAdapter } from '../contract/adapter.js'
import { remoteAdapter, type RemoteAdapter } from '../protocol/remote-adapter.js'
import { readCounterexample, type CounterexampleFile } from '../store/counterexample.js'
import type { ConformanceProperty } from '../property/property.js'
import { isScenarioCase } from './scenario-clauses.js'
import { replayScheduler } from '../engine/replay-scheduler.js'
import { loadAdapter } from '../safe/load-adapter.js'
import { storyOf, violationsOf } from '../property/property.js'
import { PROPERTIES } from '../../suites/index.js'
import { underWatchdog } from '../watchdog/alone.js'
import { UsageError } from './usage.js'
import { explainFailure } from '../report/explain.js'

export interface ReplayTarget {
  adapter?: string | undefined
  /** A protocol server's command line, instead of an adapter module. */
  command?: string | undefined
}

export async function replay(file: string | undefined, target: ReplayTarget = {}): Promise<number> {
  if (!file) throw new UsageError('replay needs a counterexample file: toolreg replay <file.json>')
  if (target.adapter && target.command) throw new UsageError('give either --adapter or --command, not both')
  const ce = await readCounterexample(file, isScenarioCase)
  const property = PROPERTIES.find((p) => p.id === ce.clause)
  if (!property) throw new UsageError(`${file}: no property checks clause ${ce.clause}`)
  // A protocol server that exits or hangs on the case is the failure certify reported, not an adapter error.
  let serverEnded: string | undefined
  const onEnded = (_how: unknown, detail: string) => void (serverEnded ??= detail)
  const adapter = target.command ? remoteAdapter(target.command, false, onEnded) : await loadAdapter(target.adapter)
  try {
    return await replayOn(adapter, ce, property, () => serverEnded)
  } finally {
    ;(adapter as Partial<RemoteAdapter>).close?.()
  }
}

async function replayOn(adapter: ConformanceAdapter, ce: CounterexampleFile, property: ConformanceProperty, ended: () => string | undefined): Promise<number> {
  const outcome = await underWatchdog(ce.clause, property.title, () => property.run(adapter, ce.case, replayScheduler(ce.schedule)))
  const death = ended()
  if (outcome.adapterError && !death) {
    console.error(`adapter error: ${outcome.adapterError}`)
    return 2
  }
  const violations = death ? [{ clause: ce.clause, detail: death }] : violationsOf(property, outcome)
  if (violations.length === 0) {
    console.log(`${property.id} passes on this scenario with ${adapter.name}`)
    return 0
  }
  console.log(`${property.title}\n  still violated with ${adapter.name}:`)
  const isScenario = isScenarioCase(ce.clause, ce.case)
  const story = storyOf(property, ce.case)
  console.log(explainFailure({ clause: ce.clause, violations, testCase: ce.case, isScenario, story, trace: outcome.trace, seed: ce.seed, path: ce.path }))
  return 1
}
