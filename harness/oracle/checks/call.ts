/**
 * One call judged against one prediction: the checks of each concern, in the order the call goes
 * through the pipeline — entry, routing, cancellation, delivery, immutability, outcome. When other
 * pre-execute listeners or wrappers ran than predicted, or a guard out of scope, the checks after
 * routing key on a decider that did not decide: only routing's order or scope clause stands.
 */
import type { CallRecord, Trace } from '../../scenario/trace.js'
import type { CallSpec, Scenario } from '../../scenario/types.js'
import type { Expected } from '../predict.js'
import { tagClauses } from '../model/clause-tags.js'
import { count, reporter, settledView, stageEvents, type CallView, type Finding } from './call-view.js'
import { abortAndSettling, abortedBeforeBody, bodySignal } from './cancellation.js'
import { finalizedOnce, finalizerHandedOutcome, observersNotified } from './delivery.js'
import { endsBeforePolicy, executionMode, nothingRunsPastEntry, settledResult } from './entry.js'
import { executionIntact, frozenViews, oneToken } from './immutability.js'
import { secondNextEffect, voidAfterSecondNext } from './one-verdict.js'
import { publishedOutcome } from './outcome.js'
import { publishedLossless, publishedShape } from './outcome-shape.js'
import { settleGuards } from './guard-runs.js'
import { blameForGuards, routedStages } from './routing.js'

export function callView(scenario: Scenario, trace: Trace, e: Expected, record: CallRecord, callId: string, out: Finding[], nestedSpec?: CallSpec): CallView {
  const spec = nestedSpec ?? scenario.calls[Number(callId.slice(1))]!
  const entered = stageEvents(trace, callId)
  return { scenario, trace, e, record, callId, spec, nested: nestedSpec !== undefined, entered, report: (module) => reporter(module, out, callId) }
}

export function judgeCall(
  scenario: Scenario,
  trace: Trace,
  predicted: Expected,
  record: CallRecord,
  callId: string,
  out: Finding[],
  nestedSpec?: CallSpec,
): void {
  const routed = callView(scenario, trace, predicted, record, callId, out, nestedSpec)
  const view = { ...routed, e: blameForGuards({ ...routed, e: settleGuards(routed) }) }
  executionMode(view)
  const result = settledResult(view)
  if (!result) return
  const settled = settledView(view, result)
  const start = out.length
  const blind = endsBeforePolicy(settled)
  let deciderChanged: string[] = []
  if (blind) nothingRunsPastEntry(settled)
  // With no abort before the body, the routing model fixes every stage.
  else if (!abortedBeforeBody(settled)) deciderChanged = routedStages(settled)
  abortAndSettling(settled, blind)
  finalizedOnce(settled)
  finalizerHandedOutcome(settled)
  observersNotified(settled)
  frozenViews(settled)
  publishedLossless(settled)
  publishedShape(settled)
  executionIntact(settled)
  bodySignal(settled)
  oneToken(settled)
  const e = finalizerSkipped(settled)
  // A body re-run by a second next() deferred its contexts twice; a chain that ran other stages
  // returned another run's outcome: PRE-8's doing (S), so unchecked here.
  const secondNext = secondNextEffect(settled)
  if (secondNext === 'reran') publishedOutcome(settled, { ...e, outcome: { ...e.outcome, contexts: undefined } })
  else if (secondNext === 'none') publishedOutcome(settled, e)
  const kept = voidAfterSecondNext(settled, out.slice(start))
  out.splice(start, out.length - start, ...(deciderChanged.length > 0 ? kept.filter((x) => deciderChanged.includes(x.clause)) : kept))
}

/** The content a finalizer that never ran should have put in place is the finalize count's finding (FIN-2), not FIN-3's. */
function finalizerSkipped(view: CallView): Expected {
  const { e, scenario } = view
  if (!e.finalizeRuns || e.outcome.contentClause !== 'FIN-3' || count(view, 'finalize') > 0) return e
  return tagClauses(scenario, { ...e, outcome: { ...e.outcome, contentClause: e.clauseOf.finalize } })
}
