/** The post-execute waterfall and what its decision makes of the outcome (PST-1..PST-3, CTX-1, OUT-5). */
import { isLosslessDesc, isObjectDesc, isPlainDesc, jsonOf, readField, THROWS, unwrapPromise } from '../../scenario/read-desc.js'
import { DELEGATING, type DecisionSpec, type PostSpec, type ToolSpec, type ValueDesc } from '../../scenario/types.js'
import { isContent, isUserMessageDesc } from './content.js'
import { successOf } from './execution.js'
import { outOfShape, type ShapeLatitude } from './shape-latitude.js'
import type { PredictedOutcome } from './types.js'

export function postWaterfall(specs: PostSpec[], applicable: number[], tool: ToolSpec, before: PredictedOutcome, shapes: ShapeLatitude) {
  let entered = 0
  let decision: DecisionSpec | undefined
  let throwsAfter = false
  for (const index of applicable) {
    entered++
    const d = specs[index]!.decision
    if (d.kind === 'throws-after-next') throwsAfter = true
    if (DELEGATING.has(d.kind)) continue
    decision = d
    break
  }
  // A listener that throws once next() has answered fails the call whatever the listeners inside decided.
  return { entered, outcome: applyPost(throwsAfter ? { kind: 'throws' } : decision, tool, before, shapes) }
}

/** Whether a listener in scope decides rather than delegates (its decision may change the outcome). */
export function postDecides(specs: PostSpec[], applicable: number[]): boolean {
  return applicable.some((index) => specs[index]!.decision.kind === 'throws-after-next' || !DELEGATING.has(specs[index]!.decision.kind))
}

function applyPost(d: DecisionSpec | undefined, tool: ToolSpec, before: PredictedOutcome, shapes: ShapeLatitude): PredictedOutcome {
  if (!d) return before
  // A post-execute failure is a pipeline error: it may drop the deferred contexts (CTX-1).
  const failed: PredictedOutcome = { isError: true, clause: 'PST-3', contexts: before.contexts, contextsAlt: [[]] }
  if (d.kind === 'throws' || d.kind === 'rejects') return failed
  if (d.kind !== 'returns') return failed
  const v = unwrapPromise(d.value)
  if (!isObjectDesc(v) || Array.isArray(v)) return failed
  const [kind, feedback, value, content, extra] = ['kind', 'feedback', 'value', 'content', 'additionalContexts'].map((k) => readField(v, k))
  if ([kind, feedback, value, content, extra].includes(THROWS)) return failed
  if (extra !== undefined && !isLosslessDesc(extra as ValueDesc)) return failed
  const shaped = extra === undefined || (Array.isArray(extra) && extra.every(isUserMessageDesc))
  if (!shaped && !shapes.misshapen('contexts')) return outOfShape(before.contexts)
  // A lax registry appends a misshapen array as it is; what it makes of a non-array is its own.
  const added = extra === undefined ? [] : Array.isArray(extra) ? (jsonOf(extra as ValueDesc) as unknown[]) : undefined
  const contexts = added === undefined ? undefined : [...(before.contexts ?? []), ...added]
  /**
   * CTX-1 places only the deferred contexts: the ones this decision adds may follow them (as
   * predicted), come first, or be left out. Each of those, for the predicted deferred contexts and
   * for each alternative a pipeline error allows (dropped), is an alternative.
   */
  const placed = (deferred: unknown[]): unknown[][] =>
    added === undefined || added.length === 0 ? [[...deferred]] : [[...deferred, ...added], [...added, ...deferred], deferred]
  const alt = (o: PredictedOutcome): PredictedOutcome => {
    if (added === undefined || o.contexts === undefined) return o
    const others = [before.contexts ?? [], ...(before.contextsAlt ?? [])].flatMap(placed).slice(1)
    return others.length > 0 ? { ...o, contextsAlt: [...(o.contextsAlt ?? []), ...others] } : o
  }
  /** Content given by the decision: well-shaped, lossless of the wrong shape (OUT-5), or malformed. */
  const given = (desc: ValueDesc | undefined): 'ok' | 'misshapen' | 'malformed' =>
    desc === undefined || !isLosslessDesc(desc) ? 'malformed' : isContent(desc) ? 'ok' : 'misshapen'
  if (kind === 'block') {
    const fed = given(feedback as ValueDesc | undefined)
    if (fed === 'malformed') return failed
    if (fed === 'misshapen' && !shapes.misshapen('post-content')) return outOfShape(before.contexts)
    return alt({ isError: true, clause: 'PST-1', ...(contexts ? { contexts } : {}), content: jsonOf(feedback as ValueDesc), contentClause: 'PST-1' })
  }
  if (kind !== 'accept') return failed
  const hasValue = isPlainDesc(v) && 'value' in (v as object)
  const hasContent = content !== undefined
  if (hasValue && hasContent) return failed
  if (hasValue) {
    // A value replacement that ends in an error is a pipeline error: it may drop the contexts (CTX-1).
    const alternatives = { contextsAlt: [...(before.contextsAlt ?? []), []] }
    if (before.isError) return { isError: true, clause: 'PST-2', upstream: before.clause, contexts: before.contexts, ...alternatives }
    const newValue = (value === undefined ? { $: 'undefined' } : value) as ValueDesc
    const replaced = successOf(tool, newValue, 'PST-1', contexts ?? [], before.concludes ?? false, shapes)
    const made = alt(contexts ? replaced : withoutContexts(replaced))
    return made.isError && made.contexts ? { ...made, contextsAlt: [...(made.contextsAlt ?? []), [], added ?? []] } : made
  }
  if (hasContent) {
    const shape = given(content as ValueDesc)
    if (shape === 'malformed') return failed
    if (shape === 'misshapen' && !shapes.misshapen('post-content')) return outOfShape(before.contexts)
    // Replacing content is PST-1's rule whatever the outcome; the body's meta stays the body's (OUT-2).
    const replaced = { ...before, clause: before.isError ? 'PST-2' : 'PST-1', content: jsonOf(content as ValueDesc), contentClause: 'PST-1' }
    return alt(withoutContexts(replaced, contexts))
  }
  return alt(withoutContexts({ ...before }, contexts))
}

/** The outcome with `contexts` in place, or with none predicted when they are unconstrained. */
function withoutContexts(outcome: PredictedOutcome, contexts?: unknown[]): PredictedOutcome {
  const { contexts: _dropped, ...rest } = outcome
  return contexts ? { ...rest, contexts } : rest
}
