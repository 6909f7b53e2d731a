/**
 * CLM-2's oracle: what each sequential order of the same calls produces, each order on a fresh
 * setup(), and whether one of them matches what the concurrent run produced.
 */
import { isDeepStrictEqual } from 'node:util'
import type { JsonValue } from '../contract/spec.js'
import { callTool, type CallOutcome } from './call-tool.js'
import { permutations } from './permutations.js'
import { settleWithin, type Stalls } from './settle-within.js'
import { IMMEDIATE_HARNESS, withTrial } from './trial.js'
import type { LoadedTool } from './types.js'

/** Outcomes indexed like the calls (undefined for a call that did not run), and the final observe(). */
export interface RunResult {
  outcomes: (CallOutcome | undefined)[]
  state: JsonValue
}

export interface OrderTried {
  order: number[]
  result: RunResult
}

/** Runs the calls at `order` one after another on a fresh setup(). */
export async function runInOrder(
  tool: LoadedTool,
  calls: readonly JsonValue[],
  order: readonly number[],
  trialTimeoutMs: number,
  stalls: Stalls,
): Promise<RunResult> {
  return withTrial(tool, IMMEDIATE_HARNESS, async ({ def, observe }) => {
    const outcomes: (CallOutcome | undefined)[] = calls.map(() => undefined)
    for (const i of order) {
      const run = await settleWithin(callTool(def, calls[i]!, { callId: `seq-${i + 1}`, signal: new AbortController().signal }), trialTimeoutMs)
      if (!run.settled) stalls.skip(`a call run alone did not settle within ${trialTimeoutMs} ms`)
      outcomes[i] = run.value
    }
    return { outcomes, state: await observe() }
  })
}

/**
 * The first order of the calls at `which` whose outcomes (for those calls) and final state equal
 * `observed`; every order tried, for the report, when none does.
 */
export async function findExplainingOrder(
  tool: LoadedTool,
  calls: readonly JsonValue[],
  which: readonly number[],
  observed: RunResult,
  trialTimeoutMs: number,
  stalls: Stalls,
): Promise<{ order: number[] } | { tried: OrderTried[] }> {
  const tried: OrderTried[] = []
  for (const order of permutations(which)) {
    const result = await runInOrder(tool, calls, order, trialTimeoutMs, stalls)
    const explains = which.every((i) => isDeepStrictEqual(result.outcomes[i], observed.outcomes[i])) && isDeepStrictEqual(result.state, observed.state)
    if (explains) return { order }
    tried.push({ order, result })
  }
  return { tried }
}
