/**
 * Each claim as a fast-check run: its property, the cases to try first (the schema's edges), how
 * a shrunk case is written as JSON, and — for a replay — how a saved case becomes the
 * property's values again (CLM-2's with a scheduler that follows the recorded release order).
 */
import type { JsonValue } from '../contract/spec.js'
import { replayScheduler } from '../engine/replay-scheduler.js'
import type { AbortPoint } from './abort-points.js'
import type { ArgumentsGenerator } from './arguments.js'
import { parentStateProperty } from './clm1-parent-state.js'
import { concurrencyProperty } from './clm2-concurrency.js'
import { timeoutProperty } from './clm3-timeout.js'
import { purityProperty } from './clm4-purity.js'
import type { ClaimRun } from './run-claim.js'
import type { ClaimSettings } from './settings.js'
import { Stalls } from './settle-within.js'
import type { ClaimId, LoadedTool } from './types.js'

/** What a replay needs of a saved counterexample. */
export interface SavedCase {
  case: JsonValue
  schedule?: number[]
}

type Case = { [k: string]: JsonValue }

/** A replay re-runs its case up to this many times, so a tool that breaks a claim only sometimes (a coin-flip classifier) still fails it. */
const REPLAY_ATTEMPTS = 5

export function claimRun(id: ClaimId, tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings, saved?: SavedCase): ClaimRun<unknown[]> {
  const replay = saved ? { examples: Array.from({ length: REPLAY_ATTEMPTS }, () => valuesOf(id, saved)), replay: true } : undefined
  const stalls = new Stalls()
  const single = args.edges.map((edge) => [edge])
  switch (id) {
    case 'CLM-1':
      return {
        id,
        property: parentStateProperty(tool, args, settings, stalls),
        stalls,
        examples: single,
        describeCase: ([input]) => ({ arguments: input as JsonValue }),
        ...replay
      }
    case 'CLM-2':
      return { id, property: concurrencyProperty(tool, args, settings, stalls), stalls, describeCase: ([calls]) => ({ calls: calls as JsonValue }), ...replay }
    case 'CLM-3':
      return {
        id,
        property: timeoutProperty(tool, args, settings),
        stalls,
        examples: args.edges.map((edge) => [edge, { at: 'entry' } satisfies AbortPoint]),
        describeCase: ([input, point]) => ({ arguments: input as JsonValue, abort: point as JsonValue }),
        ...replay,
      }
    case 'CLM-4':
      return {
        id,
        property: purityProperty(tool, args, settings, stalls),
        stalls,
        examples: single,
        describeCase: ([input]) => ({ arguments: input as JsonValue }),
        ...replay
      }
  }
}

function valuesOf(id: ClaimId, saved: SavedCase): unknown[] {
  const c = saved.case as Case
  switch (id) {
    case 'CLM-2':
      return [c.calls, replayScheduler(saved.schedule ?? [])]
    case 'CLM-3':
      return [c.arguments, c.abort]
    default:
      return [c.arguments]
  }
}
