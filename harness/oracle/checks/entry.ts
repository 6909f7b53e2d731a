/**
 * A call before its stages: executionMode's answer (MODE-1, MODE-2, DEF-5); that execute settles,
 * and an ill-typed input as an error outcome (IN-4, IN-5, S); and that a call which ends at entry
 * (IN-2, CAN-1, no visible tool: IN-4, CODE-1, CODE-5) runs no policy, approval or body, and no
 * finalizer when it reached no tool (FIN-2, CODE-1).
 */
import type { Stage } from '../../scenario/trace.js'
import type { ToolExecutionResult } from '../../contract/spec.js'
import { approvalRequested, count, type CallView } from './call-view.js'

export function executionMode(view: CallView): void {
  const { e, record } = view
  // A nested call is dispatched by a body, which asks no executionMode.
  if (view.nested) return
  const modeAnswered = record.mode === 'parallel' || record.mode === 'exclusive'
  const modeWrong = e.mode === 'unconstrained' ? !modeAnswered : record.mode !== e.mode
  if (modeWrong) view.report('entry')(e.clauseOf.mode, 'execution-mode', `executionMode answered ${record.mode}, expected ${e.mode}`)
}

/** The result execute resolved with; undefined once it is reported as not settling as it must. */
export function settledResult(view: CallView): ToolExecutionResult | undefined {
  const { record } = view
  const report = view.report('entry')
  // An ill-typed input is judged under IN-5 (S) alone: no R clause depends on how it ends.
  if (view.spec.malformed) {
    if (record.rejected !== undefined) return void report('IN-5', 'ill-typed-rejected', `execute rejected an ill-typed input: ${record.rejected}`)
    const isError = (record.result as { isError?: unknown } | undefined)?.isError
    if (isError !== true) {
      report('IN-5', 'ill-typed-not-error', record.result ? 'an ill-typed input did not end as an error outcome' : 'execute did not settle')
    }
    return undefined
  }
  if (record.rejected !== undefined) return void report('IN-4', 'rejected', `execute rejected: ${record.rejected}`)
  if (!record.result) return void report('IN-4', 'not-settled', 'execute did not settle')
  return record.result
}

/** The call ends before any policy runs: no tool is visible (on the branch that runs no policy: IN-4), or it ends at entry (IN-2, CAN-1). */
export const endsBeforePolicy = (view: CallView): boolean => (!view.e.tool && !view.e.unknownAfterPolicy) || view.e.endedAtEntry !== undefined

/** Stages that must not run at all for a call that ends before any policy. */
export function nothingRunsPastEntry(view: CallView): void {
  const { e } = view
  const report = view.report('entry')
  for (const stage of ['pre', 'approval', 'guard', 'wrapper', 'body', 'post'] as Stage[]) {
    if (count(view, stage) > 0) report(e.clauseOf.entry, 'stage-ran', `${stage} ran although the call should end before any policy`)
  }
  if (!e.tool && count(view, 'finalize') > 0) {
    report(e.clauseOf.finalize, 'finalized-without-tool', 'finalizeContent ran for a call whose tool was not visible')
  }
  if (approvalRequested(view.trace, view.callId)) report(e.clauseOf.entry, 'approval-requested', 'approval was requested')
}
