/**
 * The routing table, call by call: which tool a call reaches, which hooks apply, and the entry,
 * pre-execute, approval and guard rows that may end it before execution (IN-2, IN-4, IN-5, CAN-1,
 * CODE-1, CODE-5, DEF-5, PRE-1..PRE-5, APR-1..APR-3, GRD-1, GRD-3, MODE-1, MODE-2).
 */
import { isLosslessDesc, isObjectDesc, isUndefinedDesc, jsonOf, readField, THROWS, unwrapPromise } from '../../scenario/read-desc.js'
import type { CallSpec, PreSpec, Scenario, ToolSpec, ValueDesc } from '../../scenario/types.js'
import { matchesSchema } from '../schema-check.js'
import { decisionsByName } from '../../scenario/tool-decisions.js'
import type { Untagged } from './clause-tags.js'
import { bodyNeverRuns, wrapperChain } from './execution.js'
import { ended, finalized } from './finalize.js'
import { postWaterfall } from './post-execute.js'
import type { Mode, PredictOptions } from './types.js'
import type { ShapeLatitude } from './shape-latitude.js'

const inScope = (scope: string | undefined, agent: string | undefined) => scope === undefined || scope === agent
const indexes = <T extends { scope?: string }>(list: T[], agent: string | undefined) =>
  list.flatMap((item, i) => (inScope(item.scope, agent) ? [i] : []))

export function visibleTool(scenario: Scenario, call: CallSpec, nested = false): ToolSpec | undefined {
  // In code mode only a call carrying the parent token of an execution in flight reaches native tools (CODE-2).
  if (scenario.config.mode === 'code' && !nested) return undefined
  const own = call.agent ? scenario.tools.find((t) => t.name === call.tool && t.scope === call.agent) : undefined
  return own ?? scenario.tools.find((t) => t.name === call.tool && t.scope === undefined)
}

export function route(scenario: Scenario, callIndex: number, options: PredictOptions, shapes: ShapeLatitude): Untagged {
  const call = options.nested ?? scenario.calls[callIndex]!
  const nested = options.nested !== undefined
  const agent = call.malformed ? undefined : call.agent
  const tool = call.malformed ? undefined : visibleTool(scenario, call, nested)
  // Classification reads only the name, arguments and scope: a missing signal does not change it.
  const classified = call.malformed === 'not-an-object' ? undefined : visibleTool(scenario, call, nested)
  const e: Untagged = {
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
  // An ill-typed input still names its tool and arguments: its classification is DEF-5's when they are refused.
  if (classified && isLosslessDesc(call.args) && bodyNeverRuns(classified, call)) e.modeRefused = true
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
  const end = (at: Untagged, outcome: Untagged['outcome'], postRuns: boolean | 'may' = false) => ended(at, tool, outcome, shapes, postRuns)
  if (!isLosslessDesc(call.args)) return end({ ...e, endedAtEntry: 'IN-2' }, { isError: true, clause: 'IN-2' })
  if (call.abortAtEntry) return end({ ...e, endedAtEntry: 'CAN-1' }, { isError: true, code: 'ABORTED_BEFORE_DISPATCH', clause: 'CAN-1' })
  // The routing row for arguments invalid for a defineTool tool: the hooks "may" see the call.
  if (bodyNeverRuns(tool, call)) e.defineRefuses = true
  if (options.defineAtEntry && bodyNeverRuns(tool, call)) return end({ ...e, bodyRefused: true }, { isError: true, code: 'INVALID_ARGS', clause: 'DEF-5' })

  const pre = preWaterfall(scenario.pre, e.pre, decisionsByName(scenario.toolDecisions ?? []).get(call.tool))
  e.preEntered = pre.entered
  if (pre.decision === 'failed') return end(e, { isError: true, clause: 'PRE-4' }, false)
  if (pre.decision === 'deny') return end(e, { isError: true, clause: pre.clause }, 'may')
  if (pre.decision === 'ask') {
    const approval = scenario.config.approval
    if (!approval) return end(e, { isError: true, clause: 'PRE-5' }, 'may')
    if (agent === undefined) {
      e.agentlessAsk = true
      // APR-1's routing row: denied without asking, no guard, post-execute at S level.
      if (options.denyAgentlessAsk) return end(e, { isError: true, clause: 'APR-1' }, 'may')
    }
    e.approvalRequested = true
    if (pre.reason !== undefined) e.askReason = pre.reason
    if (approval.kind === 'throws' || approval.kind === 'rejects') return end(e, { isError: true, clause: 'APR-2' }, false)
    if (approval.kind === 'never') return end(e, { isError: true, code: 'ABORTED', clause: 'APR-2' }, 'may')
    if (unwrapPromise(approval.value) !== 'allowed-once') return end(e, { isError: true, clause: 'APR-2' }, 'may')
  }
  for (const index of e.guards) {
    e.guardsEntered++
    const verdict = scenario.guards[index]!.verdict
    if (verdict.kind === 'throws') return end(e, { isError: true, clause: 'GRD-3' }, false)
    if (verdict.kind === 'returns' && !isUndefinedDesc(verdict.value)) {
      return end(e, { isError: true, clause: e.approvalRequested ? 'APR-3' : 'GRD-1' }, 'may')
    }
  }
  const executed = wrapperChain(scenario.wrappers, e.wrappers, tool, call, shapes)
  e.wrappersEntered = executed.entered
  e.bodyRuns = executed.bodyRuns
  if (executed.refused) e.bodyRefused = true
  if (!executed.runPost) {
    e.postRuns = false
    return finalized(e, tool, executed.outcome, shapes)
  }
  e.postRuns = true
  const post = postWaterfall(scenario.post, e.post, tool, executed.outcome, shapes)
  e.postEntered = post.entered
  return finalized(e, tool, post.outcome, shapes)
}

function predictMode(tool: ToolSpec | undefined, call: CallSpec): Mode {
  if (!tool) return 'exclusive'
  if (!isLosslessDesc(call.args)) return 'unconstrained'
  if (tool.define && !matchesSchema(jsonOf(tool.parameters), jsonOf(call.args))) return 'exclusive'
  const c = tool.classifier
  if (c.kind === 'returns' || c.kind === 'getter-returns') return c.value === true ? 'parallel' : 'exclusive'
  if (c.kind === 'has-key') return hasOwnKey(jsonOf(call.args), c.key) ? 'parallel' : 'exclusive'
  return 'exclusive'
}

function hasOwnKey(json: unknown, key: string): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && Object.prototype.hasOwnProperty.call(json, key)
}

type PreDecision = 'allow' | 'deny' | 'ask' | 'failed'

type Waterfall = { decision: PreDecision; entered: number; clause: string; reason?: string }

/** The listeners in order, then the call's per-tool decision (untraced) when every listener delegated. */
function preWaterfall(specs: PreSpec[], applicable: number[], toolDecision: ValueDesc | undefined): Waterfall {
  let entered = 0
  for (const index of applicable) {
    entered++
    const d = specs[index]!.decision
    if (d.kind === 'delegate' || d.kind === 'delegate-twice' || d.kind === 'delegate-again-later') continue
    if (d.kind === 'throws' || d.kind === 'rejects') return { decision: 'failed', entered, clause: 'PRE-4' }
    return decided(d.value, entered)
  }
  return toolDecision === undefined ? { decision: 'allow', entered, clause: 'PRE-1' } : decided(toolDecision, entered)
}

function decided(value: ValueDesc, entered: number): Waterfall {
  const normalized = normalizePre(value)
  if (normalized === 'malformed') return { decision: 'deny', entered, clause: 'PRE-3' }
  const reason = normalized === 'ask' ? readField(unwrapPromise(value), 'reason') : undefined
  return { decision: normalized, entered, clause: normalized === 'deny' ? 'PRE-2' : 'PRE-1', ...(typeof reason === 'string' ? { reason } : {}) }
}

export function normalizePre(raw: ValueDesc): 'allow' | 'deny' | 'ask' | 'malformed' {
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
