/**
 * An independent model of SPEC.md's routing table: from a scenario alone it predicts, for one
 * call, which stages must run and how often, and the outcome's kind and code. Every prediction
 * carries the clause that makes it so; the judge names that clause when the trace disagrees.
 * Where abort timing matters, the judge reads the trace; the model says what holds either way.
 */
import type { CallSpec, DecisionSpec, PostSpec, PreSpec, Scenario, ToolSpec, ValueDesc, WrapperSpec } from '../scenario/types.js'
import { isLosslessDesc, jsonOf } from '../scenario/values.js'
import { matchesSchema } from './schema-check.js'

export type Stop = { clause: string; code?: string }

export interface Expected {
  /** The tool this call routes to, if visible; undefined means UNKNOWN_TOOL (CODE-1 / IN-4). */
  tool: ToolSpec | undefined
  /** Hooks (by index among the scenario's list) that apply to this caller. */
  pre: number[]
  guards: number[]
  wrappers: number[]
  post: number[]
  observers: number[]
  /** How many of each must be entered, exactly once each, in order. */
  preEntered: number
  approvalRequested: boolean
  /** The reason of the deciding `ask`, which the approval request must carry (APR-1). */
  askReason?: string
  guardsEntered: number
  wrappersEntered: number
  bodyRuns: boolean
  /** Whether post-execute must run (true), must not (false), or may (undefined: S-level). */
  postRuns: boolean | undefined
  postEntered: number
  finalizeRuns: boolean
  outcome: PredictedOutcome
  /** Parallel only when MODE-1 says so; unconstrained for arguments that are not lossless JSON (MODE-2). */
  mode: 'parallel' | 'exclusive' | 'unconstrained'
  /** An `ask` on a call with no agent: forwarding it and denying it without asking both conform (APR-1). */
  agentlessAsk?: boolean
  /** A nested call (one with `parent`, dispatched by a body): it may omit `meta` (OUT-2). */
  nested?: boolean
  /** The arguments are invalid for a `defineTool` tool: the hooks may see the call or not (DEF-5). */
  defineRefuses?: boolean
  /** The call ends at entry, before any policy (IN-2, CAN-1), whatever its finalizer makes of it. */
  endedAtEntry?: 'IN-2' | 'CAN-1'
}

export interface PredictOptions {
  /** Take APR-1's other branch: an agent-less `ask` is denied without asking. */
  denyAgentlessAsk?: boolean
  /** Take DEF-5's other branch: a `defineTool` tool's invalid arguments end the call at entry, before any hook. */
  defineAtEntry?: boolean
  /** Predict this nested call (a body's `dispatch` step, carrying its token as parent) instead. */
  nested?: CallSpec
  /** OUT-5's other branch for these sources: lossless content of the wrong shape published as it is. */
  lax?: ReadonlySet<ShapeSource>
}

export interface PredictedOutcome {
  isError: boolean
  code?: string
  /** The clause that decided the outcome. */
  clause: string
  /**
   * No visible tool, arguments not lossless JSON: the call may end at IN-2 first, with another code,
   * provided a call to a missing tool with the same arguments ends the same way (CODE-1).
   */
  in2First?: boolean
  /** The clause that demands `code`, when not `clause` (a thrown code is OUT-4's, an S clause). */
  codeClause?: string
  value?: unknown
  contexts?: unknown[]
  /** Other context lists that conform (CTX-1: a pipeline error may drop the deferred contexts). */
  contextsAlt?: unknown[][]
  concludes?: boolean
  /** The content the finalizer or post-execute put in place, when predictable. */
  content?: unknown
  /** What presentationMeta gives for a success's value (OUT-2); absent when it has no meta. */
  meta?: { present: false } | { present: true; value: unknown }
}

const inScope = (scope: string | undefined, agent: string | undefined) => scope === undefined || scope === agent
const indexes = <T extends { scope?: string }>(list: T[], agent: string | undefined) =>
  list.flatMap((item, i) => (inScope(item.scope, agent) ? [i] : []))

export function visibleTool(scenario: Scenario, call: CallSpec, nested = false): ToolSpec | undefined {
  // In code mode only a call carrying the parent token of an execution in flight reaches native tools (CODE-2).
  if (scenario.config.mode === 'code' && !nested) return undefined
  const own = call.agent ? scenario.tools.find((t) => t.name === call.tool && t.scope === call.agent) : undefined
  return own ?? scenario.tools.find((t) => t.name === call.tool && t.scope === undefined)
}

/**
 * Where a projection, finalizer, post-execute decision or deferred context gives lossless JSON of
 * the wrong shape, OUT-5 (S) wants INVALID_TOOL_OUTPUT; an implementation may instead publish it as
 * it is. `lax` names the sources predicted on that second branch, so R clauses hold on either.
 */
export type ShapeSource = 'render' | 'finalize' | 'post-content' | 'contexts'
const shapes = { lax: new Set<ShapeSource>() as ReadonlySet<ShapeSource>, met: new Set<ShapeSource>() }
const misshapen = (source: ShapeSource): boolean => (shapes.met.add(source), shapes.lax.has(source))
// An INVALID_TOOL_OUTPUT a later stage makes is a pipeline error: it may drop the contexts (CTX-1).
const outOfShape = (contexts: unknown[] | undefined): PredictedOutcome => ({ isError: true, code: 'INVALID_TOOL_OUTPUT', clause: 'OUT-5', ...(contexts ? { contexts, contextsAlt: [[]] } : {}) })

/** The shape sources a call meets, on the strict branch or the lax one. */
export function shapeSources(scenario: Scenario, callIndex: number): ShapeSource[] {
  const met = new Set<ShapeSource>()
  for (const lax of [new Set<ShapeSource>(), new Set<ShapeSource>(['render', 'finalize', 'post-content', 'contexts'])]) {
    predict(scenario, callIndex, { lax })
    for (const source of shapes.met) met.add(source)
  }
  return [...met]
}

export function predict(scenario: Scenario, callIndex: number, options: PredictOptions = {}): Expected {
  shapes.lax = options.lax ?? new Set()
  shapes.met = new Set()
  const call = options.nested ?? scenario.calls[callIndex]!
  const nested = options.nested !== undefined
  const agent = call.malformed ? undefined : call.agent
  const tool = call.malformed ? undefined : visibleTool(scenario, call, nested)
  // Classification reads only the name, arguments and scope: a missing signal does not change it.
  const classified = call.malformed === 'not-an-object' ? undefined : visibleTool(scenario, call, nested)
  const e: Expected = {
    tool,
    pre: indexes(scenario.pre, agent),
    guards: indexes(scenario.guards, agent),
    wrappers: indexes(scenario.wrappers, agent),
    post: indexes(scenario.post, agent),
    observers: indexes(scenario.observers, agent),
    preEntered: 0,
    approvalRequested: false,
    guardsEntered: 0,
    wrappersEntered: 0,
    bodyRuns: false,
    postRuns: false,
    postEntered: 0,
    finalizeRuns: false,
    outcome: { isError: true, clause: 'IN-4' },
    mode: predictMode(classified, call),
  }
  if (nested) e.nested = true
  if (!tool) {
    // An ill-typed input is IN-5's (S) alone: it resolves with an error outcome.
    if (call.malformed) {
      e.outcome = { isError: true, clause: 'IN-5' }
      return e
    }
    const hidden = scenario.config.mode === 'code' && scenario.tools.some((t) => t.name === call.tool)
    e.outcome = { isError: true, code: 'UNKNOWN_TOOL', clause: hidden ? (call.fakeParent ? 'CODE-5' : 'CODE-1') : 'IN-4' }
    if (!isLosslessDesc(call.args)) e.outcome.in2First = true
    return e
  }
  e.finalizeRuns = tool.finalize !== undefined
  if (!isLosslessDesc(call.args)) return ended({ ...e, endedAtEntry: 'IN-2' }, tool, { isError: true, clause: 'IN-2' })
  if (call.abortAtEntry) return ended({ ...e, endedAtEntry: 'CAN-1' }, tool, { isError: true, code: 'ABORTED_BEFORE_DISPATCH', clause: 'CAN-1' })
  // The routing row for arguments invalid for a defineTool tool: the hooks "may" see the call.
  if (bodyNeverRuns(tool, call)) e.defineRefuses = true
  if (options.defineAtEntry && bodyNeverRuns(tool, call)) return ended(e, tool, { isError: true, code: 'INVALID_ARGS', clause: 'DEF-5' })

  const pre = preWaterfall(scenario.pre, e.pre)
  e.preEntered = pre.entered
  if (pre.decision === 'failed') return ended(e, tool, { isError: true, clause: 'PRE-4' }, false)
  if (pre.decision === 'deny') return ended(e, tool, { isError: true, clause: pre.clause }, 'may')
  if (pre.decision === 'ask') {
    const approval = scenario.config.approval
    if (!approval) return ended(e, tool, { isError: true, clause: 'PRE-5' }, 'may')
    if (agent === undefined) {
      e.agentlessAsk = true
      // APR-1's routing row: denied without asking, no guard, post-execute at S level.
      if (options.denyAgentlessAsk) return ended(e, tool, { isError: true, clause: 'APR-1' }, 'may')
    }
    e.approvalRequested = true
    if (pre.reason !== undefined) e.askReason = pre.reason
    if (approval.kind === 'throws' || approval.kind === 'rejects') return ended(e, tool, { isError: true, clause: 'APR-2' }, false)
    if (approval.kind === 'never') return ended(e, tool, { isError: true, code: 'ABORTED', clause: 'APR-2' }, 'may')
    if (unwrapPromise(approval.value) !== 'allowed-once') return ended(e, tool, { isError: true, clause: 'APR-2' }, 'may')
  }
  for (const index of e.guards) {
    e.guardsEntered++
    const verdict = scenario.guards[index]!.verdict
    if (verdict.kind === 'throws') return ended(e, tool, { isError: true, clause: 'GRD-3' }, false)
    if (verdict.kind === 'returns' && !(isUndefinedDesc(verdict.value))) {
      return ended(e, tool, { isError: true, clause: e.approvalRequested ? 'APR-3' : 'GRD-1' }, 'may')
    }
  }
  const executed = wrapperChain(scenario.wrappers, e.wrappers, tool, call)
  e.wrappersEntered = executed.entered
  e.bodyRuns = executed.bodyRuns
  let outcome = executed.outcome
  if (!executed.runPost) {
    e.postRuns = false
    return finalized(e, tool, outcome)
  }
  e.postRuns = true
  const post = postWaterfall(scenario.post, e.post, tool, outcome)
  e.postEntered = post.entered
  outcome = post.outcome
  return finalized(e, tool, outcome)
}

function ended(e: Expected, tool: ToolSpec, outcome: PredictedOutcome, postRuns: boolean | 'may' = false): Expected {
  e.postRuns = postRuns === 'may' ? undefined : postRuns
  return finalized(e, tool, outcome)
}

function finalized(e: Expected, tool: ToolSpec, outcome: PredictedOutcome): Expected {
  const fin = tool.finalize
  // Contexts are registry-owned (FIN-3), but a finalizer's throw is a pipeline error that may drop them (CTX-1).
  if (fin?.kind === 'throws') outcome = { isError: true, clause: 'FIN-4', ...(outcome.contexts ? { contexts: outcome.contexts, contextsAlt: [[]] } : {}) }
  else if (fin?.kind === 'returns') {
    if (isUndefinedDesc(fin.value)) {
      // undefined keeps the content (FIN-3)
    } else if (isContent(fin.value)) outcome = { ...outcome, content: jsonOf(fin.value), clause: outcome.clause }
    else if (!isLosslessDesc(fin.value)) outcome = { isError: true, clause: 'META-1' }
    else if (misshapen('finalize')) outcome = { ...outcome, content: jsonOf(fin.value) }
    else outcome = outOfShape(undefined)
  }
  e.outcome = outcome
  return e
}

function predictMode(tool: ToolSpec | undefined, call: CallSpec): Expected['mode'] {
  if (!tool) return 'exclusive'
  if (!isLosslessDesc(call.args)) return 'unconstrained'
  if (tool.define && !matchesSchema(jsonOf(tool.parameters), jsonOf(call.args))) return 'exclusive'
  const c = tool.classifier
  if (c.kind === 'returns' || c.kind === 'getter-returns') return c.value === true ? 'parallel' : 'exclusive'
  return 'exclusive'
}

type PreDecision = 'allow' | 'deny' | 'ask' | 'failed'

function preWaterfall(specs: PreSpec[], applicable: number[]): { decision: PreDecision; entered: number; clause: string; reason?: string } {
  let entered = 0
  for (const index of applicable) {
    entered++
    const d = specs[index]!.decision
    if (d.kind === 'delegate' || d.kind === 'delegate-twice') continue
    if (d.kind === 'throws' || d.kind === 'rejects') return { decision: 'failed', entered, clause: 'PRE-4' }
    const normalized = normalizePre(d.value)
    if (normalized === 'malformed') return { decision: 'deny', entered, clause: 'PRE-3' }
    const reason = normalized === 'ask' ? readField(unwrapPromise(d.value), 'reason') : undefined
    return { decision: normalized, entered, clause: normalized === 'deny' ? 'PRE-2' : 'PRE-1', ...(typeof reason === 'string' ? { reason } : {}) }
  }
  return { decision: 'allow', entered, clause: 'PRE-1' }
}

function normalizePre(raw: ValueDesc): 'allow' | 'deny' | 'ask' | 'malformed' {
  const desc = unwrapPromise(raw)
  if (!isObjectDesc(desc)) return 'malformed'
  const kind = readField(desc, 'kind')
  const reason = readField(desc, 'reason')
  if (kind === THROWS || reason === THROWS) return 'malformed'
  if (kind === 'allow') return 'allow'
  if (kind === 'deny') return typeof reason === 'string' ? 'deny' : 'malformed'
  if (kind === 'ask') return reason === undefined || typeof reason === 'string' ? 'ask' : 'malformed'
  return 'malformed'
}

interface ChainOutcome {
  entered: number
  bodyRuns: boolean
  runPost: boolean
  outcome: PredictedOutcome
}

function wrapperChain(specs: WrapperSpec[], applicable: number[], tool: ToolSpec, call: CallSpec): ChainOutcome {
  let entered = 0
  for (const index of applicable) {
    entered++
    const action = specs[index]!.action
    if (action.kind === 'throws' || action.kind === 'rejects') return { entered, bodyRuns: false, runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
    if (action.kind === 'made-up') return { entered, bodyRuns: false, ...madeUp(action.result, tool) }
  }
  return { entered, bodyRuns: !bodyNeverRuns(tool, call), runPost: true, outcome: bodyOutcome(tool, call) }
}

function bodyNeverRuns(tool: ToolSpec, call: CallSpec): boolean {
  return tool.define === true && !matchesSchema(jsonOf(tool.parameters), jsonOf(call.args))
}

function madeUp(raw: ValueDesc, tool: ToolSpec): { runPost: boolean; outcome: PredictedOutcome } {
  const result = unwrapPromise(raw)
  if (!isObjectDesc(result)) return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
  const isError = readField(result, 'isError')
  const error = readField(result, 'error')
  const value = readField(result, 'value')
  if (isError === THROWS || error === THROWS || value === THROWS) return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
  if (isError === false) return { runPost: true, outcome: successOf(tool, value === undefined ? { $: 'undefined' } : value, 'EXE-4', [], false) }
  if (isError === true && error !== undefined && isObjectDesc(error) && !Array.isArray(error)) return { runPost: true, outcome: { isError: true, clause: 'EXE-4' } }
  return { runPost: false, outcome: { isError: true, clause: 'EXE-3' } }
}

function bodyOutcome(tool: ToolSpec, call: CallSpec): PredictedOutcome {
  if (bodyNeverRuns(tool, call)) return { isError: true, code: 'INVALID_ARGS', clause: 'DEF-5' }
  const contexts: ValueDesc[] = []
  let concludes = false
  for (const step of tool.body.steps) {
    if (step.kind === 'defer') contexts.push(step.context)
    if (step.kind === 'conclude') concludes = true
  }
  const lossless = contexts.filter((c) => isLosslessDesc(c))
  const shapeless = lossless.some((c) => !isUserMessage(c)) && !misshapen('contexts')
  const contextJson = (shapeless ? lossless.filter(isUserMessage) : lossless).map(jsonOf)
  // A sibling context that is not lossless JSON makes a pipeline error, which may drop the rest (CTX-1).
  if (lossless.length !== contexts.length) return { isError: true, clause: 'META-1', contexts: contextJson, contextsAlt: [[]] }
  const out = tool.body.outcome
  if (out.kind === 'throw' || out.kind === 'reject') {
    const code = thrownCode(out.thrown)
    // Beside a misshapen context, OUT-5 (S) makes this a pipeline error, which may drop the contexts (CTX-1).
    const dropped = shapeless ? { contextsAlt: [[]] } : {}
    return { isError: true, clause: code ? 'OUT-4' : 'OUT-3', ...(code ? { code, codeClause: 'OUT-4' } : {}), contexts: contextJson, ...dropped }
  }
  if (shapeless) return outOfShape(contextJson)
  const result = successOf(tool, unwrapPromise(out.value), 'OUT-1', contextJson, concludes)
  if (out.kind === 'until-aborted' && !result.isError) return { isError: true, code: 'ABORTED', clause: 'CAN-3', contexts: contextJson }
  return result
}

function successOf(tool: ToolSpec, value: ValueDesc, clause: string, contexts: unknown[], concludes: boolean): PredictedOutcome {
  if (!isLosslessDesc(value) || !matchesSchema(jsonOf(tool.outputSchema), jsonOf(value))) {
    return { isError: true, code: 'INVALID_TOOL_OUTPUT', clause, contexts }
  }
  const render = tool.render
  const renderShapeless = render.kind === 'returns' && isLosslessDesc(render.value) && !isContent(render.value)
  if (renderShapeless && !misshapen('render')) return outOfShape(contexts)
  if ((!renderShapeless && !projectionOk(render, true)) || (tool.meta && !projectionOk(tool.meta, false))) {
    return { isError: true, code: 'INVALID_TOOL_OUTPUT', clause: 'OUT-2', contexts }
  }
  return { isError: false, clause, value: jsonOf(value), contexts, concludes, meta: metaOf(tool, jsonOf(value)) }
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

function postWaterfall(specs: PostSpec[], applicable: number[], tool: ToolSpec, before: PredictedOutcome) {
  let entered = 0
  let decision: DecisionSpec | undefined
  for (const index of applicable) {
    entered++
    const d = specs[index]!.decision
    if (d.kind === 'delegate' || d.kind === 'delegate-twice') continue
    decision = d
    break
  }
  return { entered, outcome: applyPost(decision, tool, before) }
}

function applyPost(d: DecisionSpec | undefined, tool: ToolSpec, before: PredictedOutcome): PredictedOutcome {
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
  const shaped = extra === undefined || (Array.isArray(extra) && extra.every(isUserMessage))
  if (!shaped && !misshapen('contexts')) return outOfShape(before.contexts)
  // A lax registry appends a misshapen array as it is; what it makes of a non-array is its own.
  const added = extra === undefined ? [] : Array.isArray(extra) ? (jsonOf(extra as ValueDesc) as unknown[]) : undefined
  const contexts = added === undefined ? undefined : [...(before.contexts ?? []), ...added]
  /** CTX-1's alternatives (contexts a pipeline error may drop), extended by what this decision adds. */
  const alt = (o: PredictedOutcome): PredictedOutcome =>
    before.contextsAlt && added !== undefined && o.contexts !== undefined ? { ...o, contextsAlt: before.contextsAlt.map((c) => [...c, ...added]) } : o
  /** Content given by the decision: well-shaped, lossless of the wrong shape (OUT-5), or malformed. */
  const given = (desc: ValueDesc | undefined): 'ok' | 'misshapen' | 'malformed' =>
    desc === undefined || !isLosslessDesc(desc) ? 'malformed' : isContent(desc) ? 'ok' : 'misshapen'
  if (kind === 'block') {
    const fed = given(feedback as ValueDesc | undefined)
    if (fed === 'malformed') return failed
    if (fed === 'misshapen' && !misshapen('post-content')) return outOfShape(before.contexts)
    return alt({ isError: true, clause: 'PST-1', ...(contexts ? { contexts } : {}), content: jsonOf(feedback as ValueDesc) })
  }
  if (kind !== 'accept') return failed
  const hasValue = isPlainDesc(v) && 'value' in (v as object)
  const hasContent = content !== undefined
  if (hasValue && hasContent) return failed
  if (hasValue) {
    if (before.isError) return { isError: true, clause: 'PST-2', contexts: before.contexts, ...(before.contextsAlt ? { contextsAlt: before.contextsAlt } : {}) }
    const replaced = successOf(tool, (value === undefined ? { $: 'undefined' } : value) as ValueDesc, 'PST-1', contexts ?? [], before.concludes ?? false)
    return alt(contexts ? replaced : withoutContexts(replaced))
  }
  if (hasContent) {
    const shape = given(content as ValueDesc)
    if (shape === 'malformed') return failed
    if (shape === 'misshapen' && !misshapen('post-content')) return outOfShape(before.contexts)
    return alt(withoutContexts({ ...before, clause: before.isError ? 'PST-2' : 'PST-1', content: jsonOf(content as ValueDesc) }, contexts))
  }
  return alt(withoutContexts({ ...before }, contexts))
}

/** The outcome with `contexts` in place, or with none predicted when they are unconstrained. */
function withoutContexts(outcome: PredictedOutcome, contexts?: unknown[]): PredictedOutcome {
  const { contexts: _dropped, ...rest } = outcome
  return contexts ? { ...rest, contexts } : rest
}

function thrownCode(thrown: ValueDesc): string | undefined {
  if (typeof thrown === 'object' && thrown !== null && !Array.isArray(thrown) && (thrown as { $?: unknown }).$ === 'error') {
    const code = (thrown as { code?: unknown }).code
    return typeof code === 'string' ? code : undefined
  }
  return undefined
}

const THROWS = Symbol('throws')

/** What reading `key` on the value `desc` builds gives, as a descriptor (through getters and proxies). */
function readField(desc: ValueDesc | undefined, key: string): ValueDesc | undefined | typeof THROWS {
  if (desc === undefined) return undefined
  const tag = tagOf(desc)
  if (tag === 'proxy') return readField((desc as { value: ValueDesc }).value, key)
  if (tag === 'getter') return key === 'x' ? (desc as { value: ValueDesc }).value : undefined
  if (tag === 'throwing-getter') return key === 'x' ? THROWS : undefined
  if (!isPlainDesc(desc)) return undefined
  const item = (desc as Record<string, ValueDesc>)[key]
  if (item === undefined) return undefined
  if (tagOf(item) === 'getter') return (item as { value: ValueDesc }).value
  if (tagOf(item) === 'throwing-getter') return THROWS
  if (tagOf(item) === 'undefined') return undefined
  return item
}

function isObjectDesc(desc: ValueDesc): boolean {
  const tag = tagOf(desc)
  if (tag === 'proxy') return true
  if (tag === 'getter' || tag === 'throwing-getter' || tag === 'cycle' || tag === 'instance' || tag === 'map' || tag === 'date' || tag === 'error' || tag === 'boolean-object' || tag === 'sparse') return true
  return isPlainDesc(desc) || Array.isArray(desc)
}

function tagOf(desc: ValueDesc | undefined): string | undefined {
  return typeof desc === 'object' && desc !== null && !Array.isArray(desc) && typeof (desc as { $?: unknown }).$ === 'string'
    ? ((desc as { $: string }).$)
    : undefined
}

export function isPlainDesc(desc: ValueDesc): boolean {
  return typeof desc === 'object' && desc !== null && !Array.isArray(desc) && !('$' in desc)
}

function isUndefinedDesc(desc: ValueDesc): boolean {
  return isPlainDesc(desc) ? false : typeof desc === 'object' && desc !== null && (desc as { $?: unknown }).$ === 'undefined'
}

function unwrapPromise(desc: ValueDesc): ValueDesc {
  if (typeof desc === 'object' && desc !== null && !Array.isArray(desc) && (desc as { $?: unknown }).$ === 'promise') {
    return unwrapPromise((desc as { value: ValueDesc }).value)
  }
  return desc
}

export function isContent(desc: ValueDesc): boolean {
  if (!isLosslessDesc(desc)) return false
  const json = jsonOf(desc)
  return Array.isArray(json) && json.every(isBlockJson)
}

function isBlockJson(block: unknown): boolean {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return false
  const b = block as Record<string, unknown>
  if (b.type === 'text') return typeof b.text === 'string'
  if (b.type === 'image') return typeof b.mimeType === 'string' && typeof b.data === 'string'
  return false
}

function isUserMessage(desc: ValueDesc): boolean {
  if (!isLosslessDesc(desc)) return false
  const m = jsonOf(desc) as Record<string, unknown> | null
  return typeof m === 'object' && m !== null && !Array.isArray(m) && m.role === 'user' && Array.isArray(m.content) && m.content.every(isBlockJson)
}
