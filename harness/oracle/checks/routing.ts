/**
 * Routing: PRE-1, PRE-7, PRE-8, SCP-2, APR-1, APR-3, GRD-1, GRD-3, EXE-1, PST-1 — with no abort
 * before the body, the routing model fixes every stage: each kind of hook entered once each, only
 * in scope, in registration order (guards: in the order guard-runs.ts settled), up to the one that decided; the approval requested exactly
 * when an `ask` decided, carrying what APR-1 allows; the body once when it runs; post-execute
 * only for the outcomes that reach it. A stage run past the point where the call should have
 * ended is filed under the clause that ended it (the expectation's tag: PRE-2, PRE-4, APR-2…).
 */
import type { Stage } from '../../scenario/trace.js'
import { show } from '../../safe/safe-read.js'
import { tagClauses } from '../model/clause-tags.js'
import type { GoneHooks } from '../model/types.js'
import type { Expected } from '../predict.js'
import { count, indexesOf, type CallView, type Report } from './call-view.js'
import { secondNextEffect } from './one-verdict.js'

/**
 * Where the model cannot tell whether a denial was the approval's or a guard's (APR-3 vs GRD-1,
 * GRD-3), the guards the trace shows running settle it; the expectations are re-tagged to match.
 */
export function blameForGuards(view: CallView): Expected {
  const { e, scenario } = view
  const ran = count(view, 'guard')
  // APR-3 blames a granted approval for skipping the guards; when the guards did run, the denial
  // they returned was ignored: that is the guard's own clause (GRD-1, GRD-3), not APR-3's.
  if (e.outcome.clause === 'APR-3' && e.guardsEntered > 0 && ran >= e.guardsEntered) {
    return tagClauses(scenario, { ...e, outcome: { ...e.outcome, clause: e.clauseOf.guardDecider! } })
  }
  // And the other way round: no guard ran at all after an approval, so a guard's verdict never
  // had its chance; the granted approval bypassed them (APR-3).
  if (e.approvalRequested && e.guardsEntered > 0 && ran === 0 && e.outcome.clause.startsWith('GRD')) {
    return tagClauses(scenario, { ...e, outcome: { ...e.outcome, clause: e.clauseOf.guardsBypassed } })
  }
  return e
}

/**
 * Returns the clauses under which other pre-execute listeners or wrappers ran than predicted (out
 * of scope, or another sequence), or guards out of scope (SCP-2): every later check keys on which
 * hook decided, so once another one did, only these clauses stand for the call (judgeCall drops
 * the rest).
 */
export function routedStages(view: CallView): string[] {
  const { e, scenario } = view
  const c = e.clauseOf
  const report = view.report('routing')
  const deciderChanged: string[] = []
  const decidedBy = (clause: string | undefined) => void (clause !== undefined && deciderChanged.push(clause))
  decidedBy(ordered(view, 'pre', e.pre.slice(0, e.preEntered), c.pre, report))
  approvalRequests(view, report)
  const beforeApproval = guardsBeforeApproval(view)
  if (beforeApproval) report('GRD-1', 'guard-before-approval', 'a guard ran before the approval the ask waited for: no final allow yet')
  // Guards entered by a call that should have stopped before them echo that earlier stop (unless they came before its approval).
  const guardsTooEarly = e.guardsEntered === 0 && count(view, 'guard') > 0 && !e.outcome.clause.startsWith('GRD')
  // Guards entered past the one that decided: its denial (or throw) was ignored, the guard's clause.
  const pastDecider = count(view, 'guard') > e.guardsEntered ? c.guardDecider : undefined
  const early = beforeApproval ? 'GRD-1' : c.guardsTooEarly
  const guardsFiled = ordered(view, 'guard', guardsExpected(view), guardsTooEarly ? early : (pastDecider ?? c.guards), report)
  // A guard out of scope may have decided the call in place of the predicted stage (SCP-2); order alone is settled above.
  if (guardsFiled === 'SCP-2') decidedBy(guardsFiled)
  decidedBy(ordered(view, 'wrapper', e.wrappers.slice(0, e.wrappersEntered), c.wrappers, report))
  // A body re-run, or run after all, by a wrapper's second next() is PRE-8's case, not EXE-1's.
  const bodies = count(view, 'body')
  if (bodies !== (e.bodyRuns ? 1 : 0)) {
    const clause = secondNextEffect(view) !== 'none' ? 'PRE-8' : c.body
    report(clause, 'body-count', `the body ran ${bodies} times, expected ${e.bodyRuns ? 1 : 0}`)
  }
  if (e.postRuns === true) ordered(view, 'post', e.post.slice(0, e.postEntered), c.post, report)
  if (e.postRuns === false && count(view, 'post') > 0) report(c.postBypassed, 'post-bypassed', 'post-execute ran for an outcome that bypasses it')
  return deciderChanged
}

/**
 * An ask waits for its approval: a guard of the call entered before its approval request ran too
 * early (GRD-1). With no request at all the guards may have run early or the approval been
 * skipped: the missing request is APR-1's count, filed there.
 */
function guardsBeforeApproval(view: CallView): boolean {
  if (!view.e.approvalRequested) return false
  const events = view.trace.events
  const guard = events.findIndex((x) => x.ev === 'enter' && x.stage === 'guard' && x.call === view.callId)
  const request = events.findIndex((x) => x.ev === 'approval-request' && x.call === view.callId)
  return guard >= 0 && request >= 0 && guard < request
}

/**
 * GRD-1 says any non-undefined return denies, not that the guards stop at the first denial: once a
 * guard decided, the later guards may run too (once each) — the denial still stands. `e.guards` is
 * in the order the guards ran when that run conforms (guard-runs.ts), else in registration order.
 */
function guardsExpected(view: CallView): number[] {
  const { e } = view
  const decided = e.guards.slice(0, e.guardsEntered)
  if (e.clauseOf.guardDecider === undefined) return decided
  const got = indexesOf(view, 'guard')
  const runOn = got.length > decided.length && JSON.stringify(got) === JSON.stringify(e.guards.slice(0, got.length))
  return runOn ? got : decided
}

/** The clauses of a hook kind's own rules: each hook once (PRE-8; GRD-1 for guards), only in scope (PRE-7; SCP-2). */
const once = (stage: Stage) => (stage === 'guard' ? 'GRD-1' : 'PRE-8')
const inScopeOnly = (stage: Stage) => (stage === 'guard' ? 'SCP-2' : 'PRE-7')

/**
 * Hooks of one kind: once each (PRE-8), only in scope (PRE-7, SCP-2), in registration order
 * (`clause`). Returns the clause filed when other hooks than these ran (not for a hook run twice).
 */
function ordered(view: CallView, stage: Stage, expected: number[], clause: string, report: Report): string | undefined {
  const { e, scenario } = view
  const got = indexesOf(view, stage)
  const inScope = { pre: e.pre, guard: e.guards, wrapper: e.wrappers, post: e.post, observer: e.observers }[stage as 'pre'] ?? []
  if (new Set(got).size !== got.length) return void report(once(stage), 'hook-twice', `${stage} hooks entered ${show(got)}: one hook ran twice`)
  const gone = e.gone?.[stage as keyof GoneHooks] ?? []
  if (got.some((i) => gone.includes(i))) {
    report(clause, 'hook-disposed', `${stage} hooks entered ${show(got)}, but ${show(gone)} disposed of themselves in an earlier call`)
    return clause
  }
  if (got.some((i) => !inScope.includes(i))) {
    report(inScopeOnly(stage), 'hook-out-of-scope', `${stage} hooks entered ${show(got)}, but only ${show(inScope)} apply to this caller`)
    return inScopeOnly(stage)
  }
  if (JSON.stringify(got) === JSON.stringify(expected)) return undefined
  const hooks = { pre: scenario.pre, guard: scenario.guards, wrapper: scenario.wrappers, post: scenario.post, observer: scenario.observers }[stage as 'pre'] as
    | { scope?: string }[]
    | undefined
  // A scoped hook that applies and was skipped over (a later one ran) is an order fault, not a scope one.
  const scopedMissing = expected.some((i) => !got.includes(i) && hooks?.[i]?.scope !== undefined && !got.some((j) => j > i))
  // No global hook ran, one was due, and the agent's own ran: the agent's hooks stood in for the global ones.
  const isGlobal = (i: number) => hooks?.[i]?.scope === undefined
  const globalReplaced = expected.some(isGlobal) && !got.some(isGlobal) && got.length > 0
  const filed = scopedMissing || globalReplaced ? inScopeOnly(stage) : clause
  report(filed, 'hook-order', `${stage} hooks entered ${show(got)}, expected ${show(expected)}`)
  return filed
}

/** Approval requested exactly when an `ask` decided (APR-1), carrying the tool's name, the caller's signal and the reason, never the arguments. */
function approvalRequests(view: CallView, report: Report): void {
  const { e, trace, callId, spec } = view
  const c = e.clauseOf
  const requests = trace.events.filter((x) => x.ev === 'approval-request' && x.call === callId)
  if (requests.length !== (e.approvalRequested ? 1 : 0)) report(c.approval, 'approval-count', `approval requested ${requests.length} times`)
  for (const request of requests) {
    if (request.ev !== 'approval-request') continue
    if (request.keys.includes('arguments') || request.keys.includes('args')) {
      report(c.approvalRequest, 'approval-arguments', 'the approval request carried the arguments')
    }
    if (request.toolName !== spec.tool) report(c.approvalRequest, 'approval-tool', `the approval request named tool ${show(request.toolName)}`)
    if (!request.signalIsCaller) report(c.approvalRequest, 'approval-signal', "the approval request carried no signal, or another than the caller's")
    if (request.reason !== e.askReason) {
      report(c.approvalRequest, 'approval-reason', `the approval request carried the reason ${show(request.reason)}, expected ${show(e.askReason)}`)
    }
  }
}
