/**
 * CLM-2: calls the classifier marks safe (exactly `true`) run concurrently, their starts and the
 * environment's pause() points ordered by fc.scheduler. The concurrent run's outcomes and final
 * observe() must equal those of some sequential order of the same calls (each order on a fresh
 * setup()) — or, failing that, its failed calls must have failed closed: the other calls'
 * outcomes and the final state equal some sequential order of those other calls alone.
 */
import fc from 'fast-check'
import type { JsonValue, ToolDefinition } from '../contract/spec.js'
import type { ArgumentsGenerator } from './arguments.js'
import { callTool } from './call-tool.js'
import { describeRun } from './describe-run.js'
import { frozenJson } from './recording-proxy.js'
import { scheduledHarness } from './scheduled-harness.js'
import { stressSchedulers } from './stress-scheduler.js'
import { findExplainingOrder, runInOrder, type RunResult } from './sequential-orders.js'
import type { ClaimSettings } from './settings.js'
import { settleWithin, type Stalls } from './settle-within.js'
import { withTrial } from './trial.js'
import type { LoadedTool } from './types.js'
import { ClaimViolation } from './violation.js'

export const MAX_CONCURRENT_CALLS = 3

type ConcurrentRun = { calls: JsonValue[]; interleaving: { labels: string[]; schedule: number[] }; result: RunResult | undefined }

/** `calls` defaults to 2 to MAX_CONCURRENT_CALLS generated arguments; a fixed list narrows a refutation down. */
export function concurrencyProperty(tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings, stalls: Stalls, calls?: fc.Arbitrary<JsonValue[]>) {
  const generatedCalls = calls ?? fc.array(args.arbitrary, { minLength: 2, maxLength: MAX_CONCURRENT_CALLS })
  return fc.asyncProperty(generatedCalls, settings.stress ? stressSchedulers : fc.scheduler(), async (generated, scheduler: fc.Scheduler) => {
    const scheduled = scheduledHarness(scheduler)
    const run = await withTrial(tool, scheduled.harness, async ({ def, observe }): Promise<ConcurrentRun | undefined> => {
      const calls = generated.filter((input) => args.isValid(input) && classifiedSafe(def, input))
      if (calls.length < 2) return undefined
      const running = calls.map((input, i) => scheduled.start(i, () => callTool(def, input, { callId: `call-${i + 1}`, signal: new AbortController().signal })))
      const settled = await settleWithin(scheduler.waitFor(Promise.all(running)), settings.trialTimeoutMs)
      const result = settled.settled ? { outcomes: settled.value, state: await observe() } : undefined
      return { calls, interleaving: { labels: scheduled.interleaving(), schedule: scheduled.schedule() }, result }
    })
    fc.pre(run !== undefined)
    await assertExplained(tool, run, settings.trialTimeoutMs, stalls)
  })
}

function classifiedSafe(def: ToolDefinition, input: JsonValue): boolean {
  try {
    return def.isConcurrencySafe?.(frozenJson(input)) === true
  } catch {
    return false
  }
}

async function assertExplained(tool: LoadedTool, run: ConcurrentRun, trialTimeoutMs: number, stalls: Stalls): Promise<void> {
  const { calls, interleaving, result } = run
  const all = calls.map((_, i) => i)
  if (result === undefined) {
    await runInOrder(tool, calls, all, trialTimeoutMs, stalls) // skips the case if the calls stall even one at a time
    throw new ClaimViolation(
      [{
        check: 'interleaving',
        detail: `the ${calls.length} concurrent calls did not settle within ${trialTimeoutMs} ms under this interleaving; run one after another, they do`,
      }],
      interleaving,
    )
  }
  const explained = await findExplainingOrder(tool, calls, all, result, trialTimeoutMs, stalls)
  if ('order' in explained) return
  const failed = all.filter((i) => !result.outcomes[i]?.ok)
  if (failed.length > 0) {
    const others = all.filter((i) => !failed.includes(i))
    if ('order' in (await findExplainingOrder(tool, calls, others, result, trialTimeoutMs, stalls))) return // the racing calls failed closed
  }
  const orders = explained.tried.map((t) => `\n  order ${t.order.map((i) => i + 1).join('→')}: ${describeRun(t.result, all)}`)
  throw new ClaimViolation(
    [{
      check: 'interleaving',
      detail:
        `no sequential order of the ${calls.length} calls explains their concurrent run` +
        `${failed.length > 0 ? ' (and its failed calls did not fail closed)' : ''}:\n  concurrent: ${describeRun(result, all)}${orders.join('')}`,
    }],
    interleaving,
  )
}
