/**
 * Delivery: FIN-2, FIN-3, FIN-4, RES-1, RES-4 — finalizeContent runs exactly once for a visible tool
 * that has one (never otherwise; one that threw is never called again: FIN-4), handed the result
 * being finalized (FIN-3), and the observers in scope are notified in order, each with the very
 * object execute resolved with, the ones after a throwing observer included.
 */
import { show } from '../../safe/safe-read.js'
import { count, type SettledView } from './call-view.js'

export function finalizedOnce(view: SettledView): void {
  const { e } = view
  if (!e.tool) return
  const expected = e.finalizeRuns ? 1 : 0
  const ran = count(view, 'finalize')
  if (ran === expected) return
  // A finalizer that throws and is called again breaks FIN-4's own rule first ("it is not called again").
  const again = expected === 1 && ran > 1 && e.tool.finalize?.kind === 'throws'
  const clause = again ? 'FIN-4' : e.clauseOf.finalize
  view.report('delivery')(clause, again ? 'finalize-after-throw' : 'finalize-count', `finalizeContent ran ${ran} times, expected ${expected}`)
}

/** FIN-3: the finalizer receives the result being finalized; a call a gate or post-execute ended in error hands it that error. */
export function finalizerHandedOutcome(view: SettledView): void {
  const { e } = view
  const decidedBy = e.finalizerHandedError
  if (decidedBy === undefined || view.result.isError !== true) return
  // Only where the decision held and the finalizer made no error of its own (FIN-4, META-1, OUT-5): a
  // gate that let the body run, or a block that was ignored, is that clause's fault, not the finalizer's view of it.
  if (e.outcome.clause !== decidedBy || (decidedBy !== 'PST-1' && count(view, 'body') > 0)) return
  const handed = view.entered.find((x) => x.stage === 'finalize')
  if (handed?.isError !== false) return
  view.report('delivery')('FIN-3', 'finalizer-handed-success', `finalizeContent was handed a success for a call that ended in error (${decidedBy})`)
}

export function observersNotified(view: SettledView): void {
  const { e, scenario, record, result } = view
  const report = view.report('delivery')
  const observed = view.entered.filter((x) => x.stage === 'observer').map((x) => x.index)
  if (JSON.stringify(observed) !== JSON.stringify(e.observers)) {
    const firstMissing = e.observers.findIndex((index, i) => observed[i] !== index)
    const afterThrow = e.observers.slice(0, Math.max(firstMissing, 0)).some((index) => scenario.observers[index]?.throws)
    const clause = afterThrow ? e.clauseOf.observersAfterThrow : e.clauseOf.observers
    report(clause, 'observer-order', `observers notified ${show(observed)}, expected ${show(e.observers)}`)
  }
  if (record.observed.some((o) => o !== result)) {
    report(e.clauseOf.observers, 'observer-identity', 'an observer received a different object than execute resolved with')
  }
}
