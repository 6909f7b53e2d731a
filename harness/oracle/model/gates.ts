/**
 * The policy gates, in order: the pre-execute waterfall, approval, the guards (PRE-1..PRE-5,
 * APR-1..APR-3, GRD-1, GRD-3). Each gate that ends the call names the row it ends on; a call the
 * gates let on goes to execution (or, with no visible tool, ends as UNKNOWN_TOOL: IN-4).
 */
import { isObjectDesc, isUndefinedDesc, readField, THROWS, unwrapPromise } from '../../scenario/read-desc.js'
import { decisionsByName } from '../../scenario/tool-decisions.js'
import { approvalAnswer, DELEGATING, type CallSpec, type PreSpec, type Scenario, type ValueDesc } from '../../scenario/types.js'
import type { Untagged } from './clause-tags.js'
import type { PredictedOutcome, PredictOptions } from './types.js'

/** Where a gate ended the call: its outcome, and whether post-execute must run, must not, or may (S). */
export interface Stopped {
  outcome: PredictedOutcome
  postRuns: boolean | 'may'
}

/** Runs the gates on `e` (entered counts, approval), returning where one ended the call, or undefined. */
export function policyGates(scenario: Scenario, call: CallSpec, agent: string | undefined, e: Untagged, options: PredictOptions): Stopped | undefined {
  const stop = (outcome: PredictedOutcome, postRuns: boolean | 'may'): Stopped => ({ outcome, postRuns })
  const pre = preWaterfall(scenario.pre, e.pre, decisionsByName(scenario.toolDecisions ?? []).get(call.tool))
  e.preEntered = pre.entered
  if (pre.decision === 'failed') return stop({ isError: true, clause: 'PRE-4' }, false)
  if (pre.decision === 'deny') return stop({ isError: true, clause: pre.clause }, 'may')
  if (pre.decision === 'ask') {
    const approval = scenario.config.approval
    if (!approval) return stop({ isError: true, clause: 'PRE-5' }, 'may')
    if (agent === undefined) {
      e.agentlessAsk = true
      // APR-1's routing row: denied without asking, no guard, post-execute at S level.
      if (options.denyAgentlessAsk) return stop({ isError: true, clause: 'APR-1' }, 'may')
    }
    e.approvalRequested = true
    if (pre.reason !== undefined) e.askReason = pre.reason
    if (approval.kind === 'throws' || approval.kind === 'rejects') return stop({ isError: true, clause: 'APR-2' }, false)
    if (approval.kind === 'never') return stop({ isError: true, code: 'ABORTED', clause: 'APR-2' }, 'may')
    if (unwrapPromise(approvalAnswer(approval, options.approvalRequest ?? 0)) !== 'allowed-once') return stop({ isError: true, clause: 'APR-2' }, 'may')
  }
  for (const index of e.guards) {
    e.guardsEntered++
    const verdict = scenario.guards[index]!.verdict
    if (verdict.kind === 'throws') return stop({ isError: true, clause: 'GRD-3' }, false)
    if (verdict.kind === 'returns' && !isUndefinedDesc(verdict.value)) {
      return stop({ isError: true, clause: e.approvalRequested ? 'APR-3' : 'GRD-1' }, 'may')
    }
  }
  return undefined
}

type PreDecision = 'allow' | 'deny' | 'ask' | 'failed'

type Waterfall = { decision: PreDecision; entered: number; clause: string; reason?: string }

/**
 * The listeners in order, then the call's per-tool decision (untraced) when every listener delegated.
 * A listener that throws once next() has answered fails the call whatever the listeners inside decided.
 */
function preWaterfall(specs: PreSpec[], applicable: number[], toolDecision: ValueDesc | undefined): Waterfall {
  let entered = 0
  let throwsAfter = false
  const inner = (): Waterfall => {
    for (const index of applicable) {
      entered++
      const d = specs[index]!.decision
      if (d.kind === 'throws-after-next') throwsAfter = true
      if (DELEGATING.has(d.kind)) continue
      if (d.kind === 'throws' || d.kind === 'rejects') return { decision: 'failed', entered, clause: 'PRE-4' }
      return decided((d as { value: ValueDesc }).value, entered)
    }
    return toolDecision === undefined ? { decision: 'allow', entered, clause: 'PRE-1' } : decided(toolDecision, entered)
  }
  const answer = inner()
  return throwsAfter ? { decision: 'failed', entered: answer.entered, clause: 'PRE-4' } : answer
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
