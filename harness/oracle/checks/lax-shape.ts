/**
 * OUT-5's latitude: a call is judged on the strict branch (misshapen lossless content ends as
 * INVALID_TOOL_OUTPUT) and, when that fails, on the branches that publish it as it is. R clauses
 * hold if any branch holds; taking the lax branch is reported under OUT-5 (S) alone.
 */
import { clauseById } from '../../contract/clauses.js'
import type { CallRecord, Trace } from '../../scenario/trace.js'
import type { Scenario } from '../../scenario/types.js'
import { shapeSources, type ShapeSource } from '../predict.js'
import { predictBranch } from './branches.js'
import { judgeCall } from './call.js'
import type { Finding } from './call-view.js'

export function judgeEitherShape(scenario: Scenario, trace: Trace, index: number, record: CallRecord, callId: string): Finding[] {
  const run = (lax: ReadonlySet<ShapeSource>): Finding[] => {
    const list: Finding[] = []
    judgeCall(scenario, trace, predictBranch(scenario, trace, index, callId, undefined, lax), record, callId, list)
    return list
  }
  const strict = run(new Set())
  // Branches are compared on R clauses: other S deviations (OUT-4, PRE-8…) must not tip the choice;
  // an OUT-5 on the strict branch is what a lax branch explains (its own OUT-5 is replaced), so it breaks a tie.
  const rOnly = (list: Finding[]) => 2 * list.filter((x) => clauseById.get(x.clause)?.level === 'R').length
  const others = (list: Finding[]) => rOnly(list) + (list === strict && list.some((x) => x.clause === 'OUT-5') ? 1 : 0)
  if (others(strict) === 0) return strict
  const sources = shapeSources(scenario, index)
  let best = strict
  let bestLax: ShapeSource[] = []
  for (let mask = 1; mask < 1 << sources.length; mask++) {
    const lax = sources.filter((_, i) => mask & (1 << i))
    const alt = run(new Set(lax))
    if (others(alt) < others(best)) [best, bestLax] = [alt, lax]
  }
  if (best === strict) return strict
  const detail = `lossless ${bestLax.join(', ')} output of the wrong shape was published instead of ending as INVALID_TOOL_OUTPUT`
  const taken: Finding = { clause: 'OUT-5', call: callId, detail, check: 'OUT-5:lax-shape/lax-branch-taken' }
  return [...best.filter((x) => x.clause !== 'OUT-5'), taken]
}
