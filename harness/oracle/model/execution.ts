/**
 * Execution: the wrapper chain and the body, and what the tool's projections make of a success
 * (EXE-1, EXE-3, EXE-4, DEF-5, OUT-1..OUT-5, CAN-3, CTX-1, CTX-2, META-1).
 */
import {
  isLosslessDesc, isObjectDesc, isUndefinedDesc, jsonOf, readField, thrownCode, thrownSaysNothing, THROWS, unwrapPromise,
} from '../../scenario/read-desc.js'
import type { CallSpec, ToolSpec, ValueDesc, WrapperSpec } from '../../scenario/types.js'
import { matchesSchema } from '../schema-check.js'
import { isContent, isUserMessageDesc } from './content.js'
import { outOfShape, type ShapeLatitude } from './shape-latitude.js'
import type { PredictedOutcome } from './types.js'

interface ChainOutcome {
  entered: number
  bodyRuns: boolean
  /** The chain reached the body and DEF-5 refused its arguments. */
  refused?: boolean
  runPost: boolean
  outcome: PredictedOutcome
}

export function wrapperChain(specs: WrapperSpec[], applicable: number[], tool: ToolSpec, call: CallSpec, shapes: ShapeLatitude): ChainOutcome {
  let entered = 0
  for (const [position, index] of applicable.entries()) {
    entered++
    const action = specs[index]!.action
    if (action.kind === 'throws' || action.kind === 'rejects') return { entered, bodyRuns: false, runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
    if (action.kind === 'throws-after-next') {
      // What ran below it ran; its result is lost to the throw, a pipeline error that may drop the contexts (CTX-1).
      const below = wrapperChain(specs, applicable.slice(position + 1), tool, call, shapes)
      const { contexts } = below.outcome
      const outcome: PredictedOutcome = { isError: true, clause: 'EXE-3', ...(contexts ? { contexts, contextsAlt: [[]] } : {}) }
      return { ...below, entered: entered + below.entered, runPost: false, outcome }
    }
    if (action.kind === 'made-up') return { entered, bodyRuns: false, ...madeUp(action.result, tool, shapes, NO_BODY) }
    if (action.kind === 'made-up-after-next') {
      // What ran below it ran, and what a body deferred or concluded counts; a pipeline error below it is the call's.
      const below = wrapperChain(specs, applicable.slice(position + 1), tool, call, shapes)
      if (below.outcome.clause === 'EXE-3') return { ...below, entered: entered + below.entered }
      const body = below.bodyRuns ? bodyEffects(tool, shapes) : NO_BODY
      return { ...below, entered: entered + below.entered, ...madeUp(action.result, tool, shapes, body) }
    }
    if (action.kind === 'unawaited-next') {
      // The body runs on beside the made-up result, and the call waits for it (CAN-3): its contexts and conclusion count.
      const refused = bodyNeverRuns(tool, call)
      const body = refused ? NO_BODY : bodyEffects(tool, shapes)
      return { entered, bodyRuns: !refused, ...(refused ? { refused } : {}), ...madeUp(action.result, tool, shapes, body) }
    }
  }
  const refused = bodyNeverRuns(tool, call)
  return { entered, bodyRuns: !refused, ...(refused ? { refused } : {}), runPost: true, outcome: bodyOutcome(tool, call, shapes) }
}

/** A `defineTool` tool refuses arguments its parameters schema rejects (DEF-5). */
export function bodyNeverRuns(tool: ToolSpec, call: CallSpec): boolean {
  return tool.define === true && !matchesSchema(jsonOf(tool.parameters), jsonOf(call.args))
}

/** What a running body adds to any outcome of its call: the contexts it deferred and whether it concluded (CTX-1, CTX-2). */
interface BodyEffects {
  /** The lossless contexts, as the outcome carries them. */
  contexts: unknown[]
  concludes: boolean
  /** A context is not lossless JSON: the outcome is an error (META-1), which may drop the rest (CTX-1). */
  notLossless: boolean
  /** A lossless context is not a UserMessage: OUT-5 (S) makes the outcome an error, which may drop the rest. */
  shapeless: boolean
}

const NO_BODY: BodyEffects = { contexts: [], concludes: false, notLossless: false, shapeless: false }

function bodyEffects(tool: ToolSpec, shapes: ShapeLatitude): BodyEffects {
  const deferred: ValueDesc[] = []
  let concludes = false
  for (const step of tool.body.steps) {
    if (step.kind === 'defer') deferred.push(step.context)
    if (step.kind === 'conclude') concludes = true
  }
  const lossless = deferred.filter((c) => isLosslessDesc(c))
  const shapeless = lossless.some((c) => !isUserMessageDesc(c)) && !shapes.misshapen('contexts')
  const contexts = (shapeless ? lossless.filter(isUserMessageDesc) : lossless).map(jsonOf)
  return { contexts, concludes, notLossless: lossless.length !== deferred.length, shapeless }
}

function madeUp(raw: ValueDesc, tool: ToolSpec, shapes: ShapeLatitude, body: BodyEffects): { runPost: boolean; outcome: PredictedOutcome } {
  const result = unwrapPromise(raw)
  if (!isObjectDesc(result)) return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
  const isError = readField(result, 'isError')
  const error = readField(result, 'error')
  const value = readField(result, 'value')
  if (isError === THROWS || error === THROWS || value === THROWS) return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
  const errorObject = error !== undefined && isObjectDesc(error) && !Array.isArray(error)
  if (isError !== false && !(isError === true && errorObject)) return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
  const { contexts } = body
  if (body.notLossless) return { runPost: true, outcome: { isError: true, clause: 'META-1', contexts, contextsAlt: [[]] } }
  // Without a body, post-execute may still add contexts to a made-up error: they are left unchecked, as before.
  if (isError === true && body === NO_BODY) return { runPost: true, outcome: { isError: true, clause: 'EXE-4' } }
  if (isError === true) return { runPost: true, outcome: { isError: true, clause: 'EXE-4', contexts, ...(body.shapeless ? { contextsAlt: [[]] } : {}) } }
  if (body.shapeless) return { runPost: true, outcome: outOfShape(contexts) }
  return { runPost: true, outcome: successOf(tool, value === undefined ? { $: 'undefined' } : value, 'EXE-4', contexts, body.concludes, shapes) }
}

function bodyOutcome(tool: ToolSpec, call: CallSpec, shapes: ShapeLatitude): PredictedOutcome {
  if (bodyNeverRuns(tool, call)) return { isError: true, code: 'INVALID_ARGS', clause: 'DEF-5' }
  const { contexts: contextJson, concludes, notLossless, shapeless } = bodyEffects(tool, shapes)
  // A sibling context that is not lossless JSON makes a pipeline error, which may drop the rest (CTX-1).
  if (notLossless) return { isError: true, clause: 'META-1', contexts: contextJson, contextsAlt: [[]] }
  const out = tool.body.outcome
  if (out.kind === 'throw' || out.kind === 'reject') {
    const code = thrownCode(out.thrown)
    // Beside a misshapen context, OUT-5 (S) makes this a pipeline error, which may drop the contexts (CTX-1).
    const dropped = shapeless ? { contextsAlt: [[]] } : {}
    const silent = thrownSaysNothing(out.thrown) ? { saidNothing: true as const } : {}
    return { isError: true, clause: code ? 'OUT-4' : 'OUT-3', ...(code ? { code, codeClause: 'OUT-4' } : {}), contexts: contextJson, ...dropped, ...silent }
  }
  if (shapeless) return outOfShape(contextJson)
  const result = successOf(tool, unwrapPromise(out.value), 'OUT-1', contextJson, concludes, shapes)
  if (out.kind === 'until-aborted' && !result.isError) return { isError: true, code: 'ABORTED', clause: 'CAN-3', contexts: contextJson }
  return result
}

/** A success with `value`, decided by `clause`, as the tool's output schema and projections make it. */
export function successOf(tool: ToolSpec, value: ValueDesc, clause: string, contexts: unknown[], concludes: boolean, shapes: ShapeLatitude): PredictedOutcome {
  if (!isLosslessDesc(value) || !matchesSchema(jsonOf(tool.outputSchema), jsonOf(value))) {
    return { isError: true, code: 'INVALID_TOOL_OUTPUT', clause, contexts }
  }
  const render = tool.render
  const renderShapeless = render.kind === 'returns' && isLosslessDesc(render.value) && !isContent(render.value)
  if (renderShapeless && !shapes.misshapen('render')) return outOfShape(contexts)
  if ((!renderShapeless && !projectionOk(render, true)) || (tool.meta && !projectionOk(tool.meta, false))) {
    return { isError: true, code: 'INVALID_TOOL_OUTPUT', clause: 'OUT-2', contexts }
  }
  const metaClause = clause === 'OUT-1' ? 'OUT-2' : clause
  return { isError: false, clause, value: jsonOf(value), contexts, concludes, meta: metaOf(tool, jsonOf(value)), metaClause }
}

/** The interpreter's presentationMeta: `{ size }` for json-text, the described value for returns. */
function metaOf(tool: ToolSpec, value: unknown): PredictedOutcome['meta'] {
  const p = tool.meta
  if (!p) return { present: false }
  if (p.kind === 'json-text') return { present: true, value: { size: JSON.stringify(value)?.length ?? 0 } }
  if (p.kind === 'returns' && !isUndefinedDesc(p.value)) return { present: true, value: jsonOf(p.value) }
  return { present: false }
}

function projectionOk(p: ToolSpec['render'], isContentProjection: boolean): boolean {
  if (p.kind === 'json-text') return true
  if (p.kind === 'throws') return false
  if (!isContentProjection) return isUndefinedDesc(p.value) || isLosslessDesc(p.value)
  return isContent(p.value)
}
