/**
 * Outcome shape: RES-3, CTX-2, OUT-5, META-1, META-2 — the published outcome is a well-formed
 * ToolExecutionResult (a success with a value, a failure with error.message, concludesTurn only
 * as `true` on a success), its content ContentBlock[] and its contexts UserMessages, everything
 * but its value lossless JSON, it survives a JSON round trip, and no success stands for a value
 * JSON cannot hold.
 */
import { losslessProblem } from '../../safe/safe-read.js'
import { isLosslessDesc, unwrapPromise } from '../../scenario/read-desc.js'
import { visibleTool } from '../model/route.js'
import type { Expected } from '../predict.js'
import { deepEqualJson } from '../json-equal.js'
import { isBlocks, isUserMessage } from '../shapes.js'
import type { SettledView } from './call-view.js'

export function shapeProblem(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return 'the outcome is not an object'
  const r = result as Record<string, unknown>
  if (typeof r.isError !== 'boolean') return 'isError is not a boolean'
  // Content of the wrong shape is OUT-5's (S); no content at all is a shape of its own.
  if (r.content === undefined) return 'the outcome has no content'
  if (r.isError) {
    if ('value' in r) return 'a failure carries a value'
    const message = typeof r.error === 'object' && r.error !== null ? (r.error as { message?: unknown }).message : undefined
    if (typeof message !== 'string') return 'a failure has no error.message'
    if (carriesConclusion(r)) return 'a failure carries concludesTurn'
  } else {
    if (!('value' in r)) return 'a success has no value'
    if ('error' in r) return 'a success carries an error'
    if (carriesConclusion(r) && r.concludesTurn !== true) return 'concludesTurn is present but not true'
  }
  return undefined
}

/** Whether the outcome carries concludesTurn: an own key left undefined is none (it is not lossless JSON: META-1's). */
function carriesConclusion(r: object): boolean {
  if (!('concludesTurn' in r)) return false
  const own = Object.getOwnPropertyDescriptor(r, 'concludesTurn')
  return !own || own.get !== undefined || own.value !== undefined
}

/** OUT-5: the published content is a ContentBlock[] and the contexts are UserMessages. */
export function publishedShape(view: SettledView): void {
  const problem = publishedShapeProblem(view.result)
  if (problem) view.report('outcome-shape')('OUT-5', 'published-shape', problem)
}

function publishedShapeProblem(result: unknown): string | undefined {
  const r = result as { content?: unknown; additionalContexts?: unknown } | null
  if (typeof r !== 'object' || r === null) return undefined
  if (!isBlocks(r.content)) return 'the published content is not a ContentBlock[]'
  const contexts = r.additionalContexts
  if (contexts === undefined) return undefined
  return Array.isArray(contexts) && contexts.every(isUserMessage) ? undefined : 'the published additionalContexts are not UserMessages'
}

/**
 * RES-3 (and CTX-2 for a concludesTurn that is not `true`): whether the outcome is misshapen, after
 * reporting it. A misshapen outcome of the wrong kind also breaks the clause that decides its kind.
 */
export function misshapenOutcome(view: SettledView, e: Expected, aborted: boolean): boolean {
  const result = view.result
  const shape = shapeProblem(result)
  if (!shape) return false
  const report = view.report('outcome-shape')
  if (carriesConclusion(result) && (result as { concludesTurn?: unknown }).concludesTurn !== true) report('CTX-2', 'concludes-not-true', shape)
  report('RES-3', 'result-shape', shape)
  const isError = (result as { isError?: unknown } | null)?.isError
  if (!aborted && typeof isError === 'boolean' && isError !== e.outcome.isError) {
    report(e.outcome.clause, 'misshapen-kind', `outcome isError=${isError}, expected ${e.outcome.isError}`)
  }
  return true
}

/**
 * META-1: every part of the published outcome but `value` (validated JSON, OUT-1's) is lossless
 * JSON, whatever put it there — the model predicts the scenario's own values, this catches what the
 * registry added. Reads without running a getter or trap (those are readPublishedOnce's), never
 * throws on a cycle or a BigInt.
 */
export function publishedLossless(view: SettledView): void {
  const problem = losslessPartsProblem(view.result)
  if (problem) view.report('outcome-shape')('META-1', 'published-not-lossless', `the published outcome is not lossless JSON: ${problem}`)
}

function losslessPartsProblem(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined // RES-3's
  try {
    const proto = Object.getPrototypeOf(result) as unknown
    if (proto !== Object.prototype && proto !== null) return '$ is not a plain object'
    for (const key of Reflect.ownKeys(result)) {
      if (key === 'value') continue
      if (typeof key === 'symbol') return '$ has a symbol key'
      const problem = losslessProblem(Object.getOwnPropertyDescriptor(result, key)?.value, `$.${key}`)
      if (problem) return problem
    }
    return undefined
  } catch {
    // Nested past the stack: no verdict rather than a false one (META-2 still round-trips it).
    return undefined
  }
}

/** META-2: the outcome survives a JSON round trip; whether it was reported not to. */
export function jsonRoundTrip(view: SettledView): boolean {
  const result = view.result
  let roundTrip: string | undefined
  try {
    roundTrip = JSON.stringify(result)
  } catch {
    roundTrip = undefined
  }
  if (roundTrip === undefined || !deepEqualJson(JSON.parse(roundTrip), result)) {
    view.report('outcome-shape')('META-2', 'json-round-trip', 'the outcome does not survive a JSON round trip')
    return true
  }
  return false
}

/**
 * META-2, whatever seams the layer has: a success never stands for a body value JSON cannot hold.
 * A layer that stringifies such a value ("[object Object]" for an object holding a BigInt, `{}` for
 * a Map, `0` for -0) publishes an outcome that survives the round trip, but the round trip that lost
 * the value happened inside the layer. OUT-1 makes the value an INVALID_TOOL_OUTPUT error and needs
 * an output-validation seam; this check needs none, so a layer without one is still judged.
 */
export function lossySuccess(view: SettledView, e: Expected): void {
  if (view.result.isError !== false || !e.outcome.isError || e.outcome.clause !== 'OUT-1' || view.bodyLeftAt < 0) return
  const outcome = visibleTool(view.scenario, view.spec, view.nested)?.body.outcome
  if (!outcome || (outcome.kind !== 'return' && outcome.kind !== 'until-aborted')) return
  if (isLosslessDesc(unwrapPromise(outcome.value))) return
  view.report('outcome-shape')('META-2', 'lossy-success', 'a body value JSON cannot hold was published as a success')
}
