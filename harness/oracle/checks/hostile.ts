/**
 * Hostile hooks: IN-1, PST-1, PST-2, FIN-3, RES-2, OUT-2 — a write a hook made on what it was
 * handed must not take effect, and what was published is judged against what was fixed at entry:
 * a finalizer's return does not own isError, value or error (FIN-3), a failure handed to
 * post-execute stays a failure (PST-2), and content is what render returned when it returned (OUT-2).
 */
import { isLosslessDesc, isPlainDesc, jsonOf } from '../../scenario/read-desc.js'
import type { CallView } from './call-view.js'
import { execClause, resultClause } from './immutability.js'

/** Writes that took effect on an execution or a result, each naming its clause. */
export function attacksTookNoEffect(view: Pick<CallView, 'trace' | 'callId' | 'report'>): void {
  const report = view.report('hostile')
  for (const x of view.trace.events) {
    if (x.ev !== 'attack' || x.call !== view.callId || x.changed.length === 0) continue
    if (x.target === 'exec') report(execClause(x.stage), 'execution-written', `a ${x.stage} hook changed the execution's ${x.changed.join(', ')}`)
    const clause = resultClause[x.stage]
    if (x.target === 'result' && clause) report(clause, 'result-written', `a ${x.stage} hook changed the result's ${x.changed.join(', ')}`)
  }
}

/**
 * FIN-3: `isError`, `value` and `error` stay registry-owned. When a finalizer returned an object
 * carrying them, the outcome is either the result it was handed or an error, never a success that
 * the finalizer's object made.
 */
export function finalizerOwnership(view: CallView): void {
  const { e, trace, record, callId } = view
  const returned = e.tool?.finalize?.kind === 'returns' ? e.tool.finalize.value : undefined
  if (!isPlainDesc(returned) || !isLosslessDesc(returned)) return
  const seenAt = trace.events.find((x) => x.ev === 'enter' && x.stage === 'finalize' && x.call === callId)
  if (!seenAt || seenAt.ev !== 'enter' || !seenAt.detail || !record.result) return
  let seen: { isError?: unknown; value?: unknown }
  try {
    seen = JSON.parse(seenAt.detail) as typeof seen
  } catch {
    return
  }
  const published = record.result as { isError?: unknown; value?: unknown }
  if (published.isError !== false) return
  const own = jsonOf(returned) as Record<string, unknown>
  const report = view.report('hostile')
  if (seen.isError === true) {
    report('FIN-3', 'finalizer-resurrects', "a failure handed to the finalizer was published as a success made from the finalizer's return")
  }
  else if ('value' in own && JSON.stringify(published.value) !== JSON.stringify(seen.value)) {
    report('FIN-3', 'finalizer-value', "the published value is the finalizer's, not the one it was handed")
  }
}

/** PST-2: a failure that post-execute was handed is never published as a success. */
export function noResurrection(view: CallView): void {
  const handed = (stage: string) => view.trace.events.some((x) => x.ev === 'enter' && x.stage === stage && x.call === view.callId && x.isError === true)
  // The finalizer was handed a failure: post-execute kept it; what came after is FIN-3's (finalizerOwnership).
  if (handed('finalize')) return
  const handedFailure = handed('post')
  const published = view.record.result as { isError?: unknown } | undefined
  if (handedFailure && published?.isError === false) {
    view.report('hostile')('PST-2', 'post-resurrects', 'a failure handed to post-execute was published as a success')
  }
}

/**
 * OUT-2: content is what `render` returned when it returned. A projection that rewrites its own
 * output afterwards must not change what is published (checked where nothing else may replace it).
 */
export function renderSnapshot(view: CallView): void {
  const { e, record } = view
  const tool = e.tool
  const render = tool?.render
  if (!tool || render?.kind !== 'returns' || !render.mutateAfter || !isLosslessDesc(render.value)) return
  if (e.outcome.isError || e.outcome.content !== undefined || e.post.length > 0 || tool.finalize?.kind === 'returns') return
  const published = record.result as { isError?: unknown; content?: unknown } | undefined
  if (published?.isError !== false) return
  if (JSON.stringify(published.content) !== JSON.stringify(jsonOf(render.value))) {
    view.report('hostile')('OUT-2', 'render-rewritten', 'the published content is not what render returned: it changed after render returned it')
  }
}
