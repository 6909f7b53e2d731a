/**
 * Checks of hostile hooks (IN-1, PST-1, FIN-3, RES-2, OUT-2): a write a hook made on what it was
 * handed must not take effect, and what was published is judged against what was fixed at entry.
 * Also the one-fault-one-verdict rule for them: once a hook managed to change the execution
 * (IN-1), every other check of the case keys on what it changed, so only IN-1 (and RES-2, the same
 * unfrozen execution seen by observers) stands; likewise for a result a hook changed.
 */
import { isLosslessDesc, isPlainDesc, jsonOf } from '../scenario/read-desc.js'
import type { CallRecord, Stage, Trace } from '../scenario/trace.js'
import type { ToolSpec } from '../scenario/types.js'
import type { Violation } from './violation.js'
import type { Expected } from './predict.js'

const execClause = (stage: Stage | 'approval') => (stage === 'observer' ? 'RES-2' : 'IN-1')
const resultClause: Partial<Record<Stage | 'approval', string>> = { post: 'PST-1', finalize: 'FIN-3', observer: 'RES-2' }

/** Writes that took effect on an execution or a result, each naming its clause. */
export function attackViolations(trace: Trace, callId: string, v: (clause: string, detail: string) => void): void {
  for (const x of trace.events) {
    if (x.ev !== 'attack' || x.call !== callId || x.changed.length === 0) continue
    if (x.target === 'exec') v(execClause(x.stage), `a ${x.stage} hook changed the execution's ${x.changed.join(', ')}`)
    const clause = resultClause[x.stage]
    if (x.target === 'result' && clause) v(clause, `a ${x.stage} hook changed the result's ${x.changed.join(', ')}`)
  }
}

/**
 * FIN-3: `isError`, `value` and `error` stay registry-owned. When a finalizer returned an object
 * carrying them, the outcome is either the result it was handed or an error, never a success that
 * the finalizer's object made.
 */
export function finalizerOwnership(tool: ToolSpec | undefined, trace: Trace, record: CallRecord, callId: string, v: (clause: string, detail: string) => void): void {
  const returned = tool?.finalize?.kind === 'returns' ? tool.finalize.value : undefined
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
  if (seen.isError === true) v('FIN-3', "a failure handed to the finalizer was published as a success made from the finalizer's return")
  else if ('value' in own && JSON.stringify(published.value) !== JSON.stringify(seen.value)) {
    v('FIN-3', "the published value is the finalizer's, not the one it was handed")
  }
}

/** Whether a hook changed the execution anywhere in the case (a write that took effect, IN-1). */
export function executionChanged(trace: Trace): boolean {
  return trace.events.some(
    (x) => (x.ev === 'tamper' && x.changed.length > 0) || (x.ev === 'attack' && x.target === 'exec' && x.changed.length > 0),
  )
}

/** The clauses of results a hook managed to change (PST-1, FIN-3, RES-2 by stage). */
function resultChangedClauses(trace: Trace): Set<string> {
  const clauses = trace.events.flatMap((x) => (x.ev === 'attack' && x.target === 'result' && x.changed.length > 0 ? [resultClause[x.stage]] : []))
  return new Set(clauses.filter((c): c is string => c !== undefined))
}

/**
 * One fault, one verdict: after the execution was changed, only its own clauses stand; after a
 * hook changed a result it was handed, only the clause of that stage's frozen result stands.
 */
export function voidAfterTamper(out: Violation[], trace: Trace): Violation[] {
  if (executionChanged(trace)) return out.filter((x) => x.clause === 'IN-1' || x.clause === 'RES-2')
  const changed = resultChangedClauses(trace)
  return changed.size === 0 ? out : out.filter((x) => changed.has(x.clause))
}

/** PST-2: a failure that post-execute was handed is never published as a success. */
export function noResurrection(trace: Trace, record: CallRecord, callId: string, v: (clause: string, detail: string) => void): void {
  const handedFailure = trace.events.some((x) => x.ev === 'enter' && x.stage === 'post' && x.call === callId && x.isError === true)
  const published = record.result as { isError?: unknown } | undefined
  if (handedFailure && published?.isError === false) v('PST-2', 'a failure handed to post-execute was published as a success')
}

/**
 * OUT-2: content is what `render` returned when it returned. A projection that rewrites its own
 * output afterwards must not change what is published (checked where nothing else may replace it).
 */
export function renderSnapshot(e: Expected, record: CallRecord, v: (clause: string, detail: string) => void): void {
  const tool = e.tool
  const render = tool?.render
  if (!tool || render?.kind !== 'returns' || !render.mutateAfter || !isLosslessDesc(render.value)) return
  if (e.outcome.isError || e.outcome.content !== undefined || e.post.length > 0 || tool.finalize?.kind === 'returns') return
  const published = record.result as { isError?: unknown; content?: unknown } | undefined
  if (published?.isError !== false) return
  if (JSON.stringify(published.content) !== JSON.stringify(jsonOf(render.value))) {
    v('OUT-2', 'the published content is not what render returned: it changed after render returned it')
  }
}
