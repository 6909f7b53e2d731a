/**
 * Outcome: the published outcome is the one the model predicts, each part under the clause its
 * expectation carries — its kind and value (the deciding clause), its code (OUT-4 for a thrown
 * one), model-readable text for a thrown body (OUT-3), concludesTurn (CTX-2), meta (OUT-2, EXE-4,
 * PST-1), the deferred contexts (CTX-1, FIN-3) and the content put in place (FIN-3, PST-1); a wrong
 * kind is blamed on the stage that turned the error into a success.
 */
import { show } from '../../safe/safe-read.js'
import type { Expected } from '../predict.js'
import { deepEqualJson } from '../json-equal.js'
import { parseJson, type SettledView } from './call-view.js'
import { abortedOutcome } from './cancellation.js'
import { jsonRoundTrip, lossySuccess, misshapenOutcome } from './outcome-shape.js'

export function publishedOutcome(view: SettledView, e: Expected): void {
  const aborted = view.abortAt >= 0
  if (misshapenOutcome(view, e, aborted)) return
  const roundTripFailed = jsonRoundTrip(view)
  if (aborted) return abortedOutcome(view, e)
  if (!roundTripFailed) lossySuccess(view, e)
  const { result } = view
  const code = view.record.code
  const report = view.report('outcome')
  const expected = e.outcome
  const c = e.clauseOf.outcome
  if (result.isError !== expected.isError) {
    const clause = kindClause(view, e)
    if (clause === undefined) return
    return report(clause, 'kind', `outcome isError=${result.isError}, expected ${expected.isError}${code ? ` (code ${code})` : ''}`)
  }
  if (expected.code !== undefined && code !== expected.code && !expected.in2First) {
    report(expected.codeClause ?? expected.clause, 'code', `error code ${code}, expected ${expected.code}`)
  }
  if (result.isError && (expected.clause === 'OUT-3' || expected.clause === 'OUT-4') && expected.content === undefined) {
    // A body that threw with nothing to say may have its silence published as it is: an empty text block.
    const readable = Array.isArray(result.content) && result.content.some((b) =>
      b?.type === 'text' && typeof b.text === 'string' && (b.text.length > 0 || expected.saidNothing === true))
    if (!readable) report(c.thrownText, 'thrown-text', 'a thrown body left no model-readable text in content')
  }
  if (!result.isError) {
    if (expected.value !== undefined && !deepEqualJson(result.value, expected.value)) {
      report(expected.clause, 'value', 'the published value differs from the one the tool produced')
    }
    const concludes = (result as { concludesTurn?: unknown }).concludesTurn === true
    const concluded = (expected.concludes ?? false) || nestedConclusion(view)
    if (concludes !== concluded) report(c.concludes, 'concludes', `concludesTurn is ${concludes}, expected ${concluded}`)
    if (expected.meta) {
      const meta = (result as { meta?: unknown }).meta
      if (!expected.meta.present && meta !== undefined) {
        report(c.meta, 'meta-absent', `meta ${show(meta)} published for a tool whose presentationMeta gives none`)
      }
      const omitted = e.nested === true && meta === undefined
      if (expected.meta.present && !omitted && !deepEqualJson(meta, expected.meta.value)) {
        report(c.meta, 'meta-value', `meta is ${show(meta)}, expected presentationMeta's ${show(expected.meta.value)}`)
      }
    }
  } else if ((result as { concludesTurn?: unknown }).concludesTurn !== undefined) {
    report(c.concludes, 'error-concludes', 'an error outcome carries concludesTurn')
  }
  if (expected.contexts !== undefined) {
    const got = result.additionalContexts ?? []
    const conforming = [expected.contexts, ...(expected.contextsAlt ?? [])]
    // Contexts the finalizer was handed intact and that were lost after it are the finalizer stage's fault (FIN-3).
    const finalizerSaw = parseJson(view.entered.find((x) => x.stage === 'finalize')?.contexts)
    const lostAfterFinalize = finalizerSaw !== undefined && conforming.some((x) => deepEqualJson(finalizerSaw, x))
    // Contexts already wrong when the finalizer was handed them were kept wrong before it: CTX-1's, whatever it did.
    const wrongBeforeFinalize = finalizerSaw !== undefined && !lostAfterFinalize
    if (!conforming.some((x) => deepEqualJson(got, x))) {
      const clause = lostAfterFinalize ? c.contextsAfterFinalizer : wrongBeforeFinalize ? 'CTX-1' : c.contexts
      report(clause, 'contexts', `additionalContexts ${show(got)}, expected ${show(expected.contexts)}`)
    }
  }
  if (expected.content !== undefined && !deepEqualJson(result.content, expected.content)) {
    report(c.content, 'content', 'the published content is not the content put in place')
  }
}

/**
 * The clause a wrong outcome kind breaks: the stage that turned an error into a success is blamed.
 * Post-execute handed the failure (and the finalizer not): PST-2's, filed by noResurrection, so
 * none here. PST-2 predicted, but post-execute was handed a success: the stage upstream decided.
 */
function kindClause(view: SettledView, e: Expected): string | undefined {
  const expected = e.outcome
  const handed = (stage: string) => view.entered.find((x) => x.stage === stage)?.isError
  if (!view.result.isError && expected.isError && expected.clause !== 'PST-2' && handed('post') === true && handed('finalize') !== true) return undefined
  if (expected.clause === 'PST-2' && handed('post') === false && expected.upstream !== undefined) return expected.upstream
  return expected.clause
}

/** A nested call's success carrying concludesTurn, which the dispatching body forwards (CTX-2). */
function nestedConclusion({ trace, callId }: SettledView): boolean {
  return (trace.nested ?? []).some((r) => {
    if (!r.callId.startsWith(`${callId}/`) || r.callId.slice(callId.length + 1).includes('/')) return false
    try {
      return r.result?.isError === false && (r.result as { concludesTurn?: unknown }).concludesTurn === true
    } catch {
      return false
    }
  })
}
