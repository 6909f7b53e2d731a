/** `toolreg replay`: re-run exactly one saved counterexample (its case and its schedule). */
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { remoteAdapter, type RemoteAdapter } from '../protocol/remote-adapter.js'
import { readCounterexample, type CounterexampleFile } from '../store/counterexample.js'
import type { ConformanceProperty } from '../property/property.js'
import { isScenarioCase } from './scenario-clauses.js'
import { replayScheduler } from '../engine/replay-scheduler.js'
import { AdapterLoadError, loadAdapter } from '../safe/load-adapter.js'
import { storyOf, violationsOf } from '../property/property.js'
import { PROPERTIES } from '../../suites/index.js'
import { underWatchdog } from '../watchdog/alone.js'
import { UsageError } from './usage.js'
import { explainFailure } from '../report/explain.js'

/** What to replay on, when not the implementation the file records. */
export interface ReplayOptions {
  adapter?: string | undefined
  /** A protocol server's command line, instead of an adapter module. */
  command?: string | undefined
}

/**
 * Replays on the implementation the file records (its adapter module, its server command, or the
 * bundled reference), or on the one given, which must carry the recorded adapter's name: a case
 * found on one registry says nothing about another.
 */
export async function replay(file: string | undefined, given: ReplayOptions = {}): Promise<number> {
  if (!file) throw new UsageError('replay needs a counterexample file: toolreg replay <file.json>')
  if (given.adapter && given.command) throw new UsageError('give either --adapter or --command, not both')
  const ce = await readCounterexample(file, isScenarioCase)
  const property = PROPERTIES.find((p) => p.id === ce.clause)
  if (!property) throw new UsageError(`${file}: no property checks clause ${ce.clause}`)
  const target = given.adapter || given.command ? given : recordedTarget(file, ce)
  // A protocol server that exits or hangs on the case is the failure certify reported, not an adapter error.
  let serverEnded: string | undefined
  const onEnded = (_how: unknown, detail: string) => void (serverEnded ??= detail)
  const adapter = target.command ? remoteAdapter(target.command, false, onEnded) : await loadAdapter(target.adapter)
  try {
    if (adapter.name !== ce.adapter) {
      const named = target.command ? `the server of "${target.command}"` : (target.adapter ?? 'the bundled reference')
      throw new AdapterLoadError(`${file} was found on adapter "${ce.adapter}", but ${named} is adapter "${adapter.name}"`)
    }
    return await replayOn(adapter, ce, property, () => serverEnded)
  } finally {
    ;(adapter as Partial<RemoteAdapter>).close?.()
  }
}

/** The implementation the file records; its adapter path is relative to the file's folder. */
function recordedTarget(file: string, ce: CounterexampleFile): ReplayOptions {
  if (ce.target?.command) return { command: ce.target.command }
  if (ce.target?.adapter) {
    const module = resolve(dirname(file), ce.target.adapter)
    if (!existsSync(module)) throw new AdapterLoadError(`${file}: its adapter module ${module} is not there; name it with --adapter`)
    return { adapter: module }
  }
  if (!ce.target && ce.adapter !== REFERENCE_NAME) {
    throw new AdapterLoadError(`${file} does not record the module of adapter "${ce.adapter}"; name it with --adapter or --command`)
  }
  return {}
}

const REFERENCE_NAME = 'reference'

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
