/**
 * OUT-2: content is `output.render(args, value)` and meta `output.presentationMeta(args, value)`,
 * method calls on the tool's output, so a projection that reads `this` (a class-based output, a
 * helper beside the projection) finds its output there, or a copy carrying the same projection.
 * A projection of a success a wrapper made up, called detached, is EXE-4's: rendered unlike a body's value.
 */
import type { Trace } from '../../scenario/trace.js'
import type { Scenario, ValueDesc } from '../../scenario/types.js'
import { isLosslessDesc, jsonOf } from '../../scenario/values.js'
import { reporter, type Finding } from './call-view.js'

const textOf = (value: ValueDesc): string[] => (isLosslessDesc(value) ? [JSON.stringify(jsonOf(value))] : [])

/** The values wrappers make up as successes, and the ones bodies return, as JSON text. */
function madeUpOnly(scenario: Scenario): Set<string> {
  const madeUp = scenario.wrappers.flatMap((w) => {
    if (w.action.kind !== 'made-up' && w.action.kind !== 'made-up-after-next') return []
    const result = w.action.result
    const success = typeof result === 'object' && result !== null && !Array.isArray(result) && !('$' in result) && result.isError === false
    return success && result.value !== undefined ? textOf(result.value) : []
  })
  const returned = new Set(scenario.tools.flatMap((t) => (t.body.outcome.kind === 'return' ? textOf(t.body.outcome.value) : [])))
  return new Set(madeUp.filter((text) => !returned.has(text)))
}

export function projectionsCalledOnOutput(scenario: Scenario, trace: Trace, out: Finding[]): void {
  const detached = (trace.projected ?? []).filter((p) => p.detached)
  if (detached.length === 0) return
  const madeUp = madeUpOnly(scenario)
  const onlyMadeUp = detached.every((p) => p.value !== undefined && madeUp.has(p.value))
  const clause = onlyMadeUp ? 'EXE-4' : 'OUT-2'
  reporter('projection', out)(clause, 'projection-detached', `a projection of ${detached[0]!.tool} was called with a this other than its output`)
}
