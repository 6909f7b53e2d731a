/**
 * CLM-6: tools annotated `readOnlyHint: true` tolerate concurrent calls (agent clients send them
 * in parallel). Two or three calls of the server's read-only tools, sent at once on a server in
 * its pristine state after some earlier calls (earlier-calls.ts), come back with the outcomes, and
 * leave the observation, of some sequential order of the same calls (each order on a server in its
 * pristine state, after the same earlier calls) — or the calls that
 * failed failed closed: the others' outcomes and the observation are those of an order of the
 * others alone. The shape of CLM-2's oracle (harness/claims/sequential-orders.ts).
 */
import fc from 'fast-check'
import { isDeepStrictEqual } from 'node:util'
import { permutations } from '../permutations.js'
import type { Stalls } from '../settle-within.js'
import { ClaimViolation } from '../violation.js'
import { describeCall, describeRun } from './outcome-text.js'
import type { Servers } from './target.js'
import type { McpCall, McpOutcome, Observation } from './types.js'
import { unlessStalled } from './unless-stalled.js'

export const MAX_CONCURRENT_CALLS = 3

interface RunResult {
  outcomes: (McpOutcome | undefined)[]
  observation: Observation
}

/** The concurrent calls: two or three calls of the read-only tools. */
export function concurrentCalls(call: fc.Arbitrary<McpCall>): fc.Arbitrary<McpCall[]> {
  return fc.array(call, { minLength: 2, maxLength: MAX_CONCURRENT_CALLS })
}

export function concurrencyProperty(servers: Servers, cases: fc.Arbitrary<[McpCall[], McpCall[]]>, stalls: Stalls) {
  return fc.asyncProperty(cases, async ([earlier, calls]) => {
    const concurrent = await unlessStalled(stalls, () =>
      servers.withTrial(async (trial): Promise<RunResult> => {
        for (const call of earlier) await trial.call(call)
        const outcomes = await Promise.all(calls.map((c) => trial.call(c)))
        return { outcomes, observation: await trial.observe() }
      }))
    const all = calls.map((_, i) => i)
    const tried: { order: number[]; result: RunResult }[] = []
    for (const order of permutations(all)) {
      const result = await inOrder(servers, earlier, calls, order, stalls)
      if (explains(result, concurrent, all)) return
      tried.push({ order, result })
    }
    const failed = all.filter((i) => !succeeded(concurrent.outcomes[i]))
    const others = all.filter((i) => !failed.includes(i))
    if (failed.length > 0) {
      for (const order of permutations(others)) if (explains(await inOrder(servers, earlier, calls, order, stalls), concurrent, others)) return
    }
    const orders = tried.map((t) => `\n  order ${t.order.map((i) => i + 1).join('→')}: ${describeRun(t.result.outcomes, t.result.observation)}`)
    throw new ClaimViolation([{
      check: 'interleaving',
      detail:
        `no sequential order of ${calls.map(describeCall).join(', ')} explains their concurrent run` +
        `${failed.length > 0 ? ' (and its failed calls did not fail closed)' : ''}:\n` +
        `  concurrent: ${describeRun(concurrent.outcomes, concurrent.observation)}${orders.join('')}`,
    }])
  })
}

async function inOrder(servers: Servers, earlier: readonly McpCall[], calls: readonly McpCall[], order: readonly number[], stalls: Stalls): Promise<RunResult> {
  return unlessStalled(stalls, () =>
    servers.withTrial(async (trial) => {
      for (const call of earlier) await trial.call(call)
      const outcomes: (McpOutcome | undefined)[] = calls.map(() => undefined)
      for (const i of order) outcomes[i] = await trial.call(calls[i]!)
      return { outcomes, observation: await trial.observe() }
    }))
}

function explains(sequential: RunResult, concurrent: RunResult, which: readonly number[]): boolean {
  return which.every((i) => isDeepStrictEqual(sequential.outcomes[i], concurrent.outcomes[i])) &&
    isDeepStrictEqual(sequential.observation, concurrent.observation)
}

function succeeded(outcome: McpOutcome | undefined): boolean {
  return outcome !== undefined && 'result' in outcome && (outcome.result as { isError?: unknown }).isError !== true
}
