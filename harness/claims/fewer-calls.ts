/**
 * fast-check shrinks CLM-2's calls but not the scheduler's choices, and a shrunk list of calls
 * meets a different interleaving, so a refutation often keeps a call that plays no part. This
 * tries every list with one call fewer, under fresh interleavings, and keeps the first that
 * still refutes the claim, until none does.
 */
import fc from 'fast-check'
import type { JsonValue } from '../contract/spec.js'
import type { ArgumentsGenerator } from './arguments.js'
import { concurrencyProperty } from './clm2-concurrency.js'
import { runClaim } from './run-claim.js'
import type { ClaimSettings } from './settings.js'
import { Stalls } from './settle-within.js'
import type { ClaimVerdict, LoadedTool } from './types.js'

const INTERLEAVINGS_PER_LIST = 50

export async function withFewerCalls(verdict: ClaimVerdict, tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings): Promise<ClaimVerdict> {
  let best = verdict
  for (;;) {
    const calls = (best.counterexample?.case as { calls?: JsonValue[] } | undefined)?.calls ?? []
    if (calls.length <= 2) return best
    let smaller: ClaimVerdict | undefined
    for (let drop = 0; drop < calls.length && !smaller; drop++) {
      const fewer = calls.filter((_, i) => i !== drop)
      const stalls = new Stalls()
      const property = concurrencyProperty(tool, args, settings, stalls, fc.constant(fewer))
      const found = await runClaim({ id: 'CLM-2', property, stalls, describeCase: () => ({ calls: fewer }) }, { ...settings, runs: INTERLEAVINGS_PER_LIST })
      if (found.status === 'refuted') smaller = { ...found, numRuns: verdict.numRuns }
    }
    if (!smaller) return best
    best = smaller
  }
}
