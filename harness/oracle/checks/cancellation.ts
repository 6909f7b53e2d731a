/**
 * Cancellation: CAN-2, CAN-3, CAN-4, PRE-6, APR-2, EXE-2 — where the caller's abort landed decides
 * what may still run and how the call ends: no body starts after it, a started body is awaited and
 * its success replaced, the body's signal aborts with the caller's, and an error settled before
 * the abort stays that error. Execute never settles while a listener or the body is pending.
 */
import type { Stage, Trace } from '../../scenario/trace.js'
import type { Expected } from '../predict.js'
import { count, indexesOf, type SettledView } from './call-view.js'

export const abortedBeforeBody = (view: SettledView): boolean => view.abortAt >= 0 && (view.bodyAt < 0 || view.abortAt < view.bodyAt)

/**
 * The abort landed while the body ran, or as it settled: before anything awaiting the body
 * resumed, so the registry's first look at the signal after the body finds it aborted (CAN-3's
 * "then"). An abort later than that may or may not replace a success.
 */
const abortedDuringBody = ({ abortAt, bodyAt, bodyLeftAt, trace }: SettledView): boolean => {
  if (abortAt < 0 || bodyAt < 0 || abortAt < bodyAt) return false
  const event = trace.events[abortAt]
  return bodyLeftAt < 0 || abortAt < bodyLeftAt || (event?.ev === 'abort' && event.asBodySettled === true)
}

/** What may still run once the caller aborted, and when execute may settle. */
export function abortAndSettling(view: SettledView, endsBeforePolicy: boolean): void {
  const { e, record, result, abortAt, bodyAt, bodyLeftAt, settledAt } = view
  const report = view.report('cancellation')
  if (abortedBeforeBody(view) && bodyAt >= 0) {
    const stage = lastEnteredBefore(view.trace, view.callId, abortAt) ?? 'entry'
    const clause = stage === 'pre' ? 'PRE-6' : stage === 'approval' ? 'APR-2' : 'CAN-2'
    report(clause, 'body-after-abort', `the body started after the caller aborted (abort landed during ${stage})`)
  }
  const duringBody = abortedDuringBody(view)
  if (abortAt >= 0 && !endsBeforePolicy) {
    if (duringBody && bodyLeftAt >= 0 && settledAt >= 0 && settledAt < bodyLeftAt) {
      report('CAN-3', 'settled-before-aborted-body', 'execute settled before the started body settled')
    }
    if (duringBody && !result.isError) {
      const when = bodyLeftAt >= 0 && abortAt > bodyLeftAt ? 'as its body settled' : 'while its body ran'
      report('CAN-3', 'aborted-body-success', `a call whose caller aborted ${when} was published as a success`)
    }
    // With nothing after the body that may change it, a success replaced by cancellation is exactly ABORTED.
    const replaced = !e.outcome.isError || e.outcome.code === 'ABORTED'
    if (duringBody && result.isError && replaced && e.post.length === 0 && record.code !== 'ABORTED') {
      report('CAN-3', 'aborted-code', `a success cancelled mid-run ended with code ${record.code}, expected ABORTED`)
    }
  }
  if (bodyLeftAt >= 0 && settledAt >= 0 && settledAt < bodyLeftAt) report('CAN-3', 'settled-before-body', 'execute settled before the body settled')
  if (bodyAt >= 0 && bodyLeftAt < 0 && settledAt >= 0) report('CAN-3', 'settled-during-body', 'execute settled while the body was still running')
  if (settledDuringPre(view)) report('PRE-6', 'settled-during-pre', 'execute settled while a pre-execute listener was still pending')
}

/** PRE-6 broken: execute settled while a pre-execute listener was still pending. */
function settledDuringPre(view: SettledView): boolean {
  const preLeftAt = lastPreLeft(view)
  return awaitedOnce(view) && view.settledAt >= 0 && (preLeftAt < 0 || view.settledAt < preLeftAt)
}

/** The call went on to a later stage while a pre-execute listener was still pending: it was never awaited (PRE-6). */
function movedOnDuringPre(view: SettledView): boolean {
  const preLeftAt = lastPreLeft(view)
  // Pre-execute is the first stage: any other entered before the last listener left went on without it.
  return awaitedOnce(view) && view.trace.events.some((x, i) =>
    x.ev === 'enter' && x.call === view.callId && x.stage !== 'pre' && (preLeftAt < 0 || i < preLeftAt))
}

const lastPreLeft = (view: SettledView): number =>
  view.trace.events.reduce((last, x, i) => (x.ev === 'leave' && x.stage === 'pre' && x.call === view.callId ? i : last), -1)

/** Pre-execute listeners were entered, none twice: a listener entered twice is PRE-8's (S) case, whose re-run chain may still be pending. */
const awaitedOnce = (view: SettledView): boolean => count(view, 'pre') > 0 && new Set(indexesOf(view, 'pre')).size === count(view, 'pre')

/** EXE-2: the signal the body holds aborts when the caller's does. */
export function bodySignal(view: SettledView): void {
  const { abortAt, bodyAt, bodyLeftAt } = view
  if (abortAt >= 0 && bodyAt >= 0 && abortAt < bodyLeftAt && view.record.bodySignalAborted === false) {
    view.report('cancellation')('EXE-2', 'body-signal', 'the caller aborted while the body ran, but the signal the body held did not abort')
  }
}

/** How an aborted call may end (CAN-4 after the outcome was decided; otherwise not as a success the model rules out). */
export function abortedOutcome(view: SettledView, e: Expected): void {
  const { result, record } = view
  const report = view.report('cancellation')
  const expected = e.outcome
  const code = record.code
  // Aborted at entry: ABORTED_BEFORE_DISPATCH, whatever reason the caller gave the abort (CAN-1).
  if (expected.clause === 'CAN-1' && expected.code !== undefined && result.isError && code !== expected.code) {
    report('CAN-1', 'entry-code', `a call aborted at entry ended with code ${code}, expected ${expected.code}`)
  }
  // Aborted at entry with arguments that are not lossless JSON: IN-2's outcome still wins, never the abort's (CAN-1).
  if (expected.clause === 'IN-2' && view.spec.abortAtEntry && code === 'ABORTED_BEFORE_DISPATCH') {
    report('CAN-1', 'invalid-arguments-win', 'a call aborted at entry with arguments that are not lossless JSON ended ABORTED_BEFORE_DISPATCH')
  }
  // A denial the registry never awaited (PRE-6) was never an outcome CAN-4 could keep.
  const unawaitedDenial = (e.outcome.clause === 'PRE-2' || e.outcome.clause === 'PRE-3') && (settledDuringPre(view) || movedOnDuringPre(view))
  const decidedAt = unawaitedDenial ? -1 : decisionPoint(view.trace, view.callId, e)
  if (decidedAt >= 0 && view.abortAt > decidedAt) {
    // A thrown code kept or lost is OUT-4's (S): CAN-4 asks only that the error stays an error.
    const codeKept = expected.code === undefined || expected.codeClause === 'OUT-4' || code === expected.code
    // A block published as a success was never applied: PST-1's fault, not cancellation's.
    const replaced = expected.clause === 'PST-1' ? result.isError && code === 'ABORTED' : !result.isError || code === 'ABORTED' || !codeKept
    if (replaced) {
      // The error was decided, not settled, before the abort: the body or the deciding listener was entered first.
      const ownError = expected.clause === 'OUT-3' || expected.clause === 'OUT-4' || expected.clause === 'OUT-1'
      // Cancellation replaces with ABORTED, never with a success: a thrown body published as one is OUT-3's, a denial
      // published as one the denial's clause (PRE-2, PRE-3…), abort or none.
      const clause = result.isError ? 'CAN-4' : ownError ? 'OUT-3' : expected.clause
      const decided = ownError
        ? 'a tool\'s own error (its body started before the abort)'
        : expected.clause === 'PST-1'
          ? 'a post-execute block (its listener was entered before the abort)'
          : 'a denial (its listener was entered before the abort)'
      report(clause, 'decided-error-replaced', `${decided} was published as ${result.isError ? `code ${code}` : 'a success'}`)
    }
    return
  }
  // Where the abort landed decides between a denial, ABORTED or a tool's own error; a success
  // is ruled out whenever the model predicts an error or the abort came before the body ended.
  if (!result.isError && expected.clause !== 'CAN-1' && e.tool && expected.isError) {
    report(e.clauseOf.abortedSuccess, 'aborted-success', 'an aborted call was published as a success')
  }
}

function lastEnteredBefore(trace: Trace, callId: string, at: number): Stage | undefined {
  let open: Stage | undefined
  for (let i = 0; i < at; i++) {
    const x = trace.events[i]!
    if (x.ev === 'enter' && x.call === callId) open = x.stage
    if (x.ev === 'approval-request' && x.call === callId) open = 'approval'
  }
  return open
}

/**
 * From where the outcome is an error an abort must not replace (CAN-4); -1 if none. A tool's own
 * error is its body's once the body has started; a denial is the deciding listener's once it was
 * entered (the registry must await it: PRE-6); so is a post-execute block, the error post-execute
 * decides on a success.
 */
function decisionPoint(trace: Trace, callId: string, e: Expected): number {
  const clause = e.outcome.clause
  // A body's throw, or a value its output schema refuses: the tool's own error, decided once its body started.
  if (clause === 'OUT-3' || clause === 'OUT-4' || (clause === 'OUT-1' && e.outcome.isError)) {
    return trace.events.findIndex((x) => x.ev === 'enter' && x.stage === 'body' && x.call === callId)
  }
  if (clause === 'PST-1' && e.outcome.isError) return nthEntered(trace, callId, 'post', e.postEntered)
  if (clause !== 'PRE-2' && clause !== 'PRE-3') return -1
  // A listener that does not apply to this caller ran (PRE-7's or SCP-2's fault): no denial of the model's was decided.
  const stray = trace.events.some((x) => x.ev === 'enter' && x.stage === 'pre' && x.call === callId && !e.pre.includes(x.index))
  return stray ? -1 : nthEntered(trace, callId, 'pre', e.preEntered)
}

/** Where the call entered `stage` for the `n`th time; -1 if it did not. */
function nthEntered(trace: Trace, callId: string, stage: Stage, n: number): number {
  let seen = 0
  return trace.events.findIndex((x) => x.ev === 'enter' && x.stage === stage && x.call === callId && ++seen === n)
}
