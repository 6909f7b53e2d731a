/** finalizeContent's row, the last word on every outcome of a visible tool (FIN-3, FIN-4, META-1, OUT-5). */
import { isLosslessDesc, isUndefinedDesc, jsonOf } from '../../scenario/read-desc.js'
import type { ToolSpec } from '../../scenario/types.js'
import type { Untagged } from './clause-tags.js'
import { isContent } from './content.js'
import { outOfShape, type ShapeLatitude } from './shape-latitude.js'
import type { PredictedOutcome } from './types.js'

/** The call ended at `outcome` before execution; post-execute must run, must not, or may (S). */
export function ended(e: Untagged, tool: ToolSpec, outcome: PredictedOutcome, shapes: ShapeLatitude, postRuns: boolean | 'may' = false): Untagged {
  e.postRuns = postRuns === 'may' ? undefined : postRuns
  return finalized(e, tool, outcome, shapes)
}

/** Errors that no abort, deadline or shape latitude turns into a success: a gate's, or post-execute's. */
const DECIDED_ERRORS = new Set(['PRE-2', 'PRE-3', 'PRE-4', 'PRE-5', 'APR-1', 'APR-2', 'APR-3', 'GRD-1', 'GRD-3', 'PST-1'])

export function finalized(e: Untagged, tool: ToolSpec, outcome: PredictedOutcome, shapes: ShapeLatitude): Untagged {
  const fin = tool.finalize
  if (outcome.isError && DECIDED_ERRORS.has(outcome.clause)) e.finalizerHandedError = outcome.clause
  // Contexts are registry-owned (FIN-3), but a finalizer's throw is a pipeline error that may drop them (CTX-1).
  // The contexts' own alternatives (where post-execute's added ones go: CTX-1) stay alternatives.
  if (fin?.kind === 'throws') {
    const contexts = outcome.contexts ? { contexts: outcome.contexts, contextsAlt: [...(outcome.contextsAlt ?? []), []] } : {}
    outcome = { isError: true, clause: 'FIN-4', ...contexts }
  }
  else if (fin?.kind === 'returns') {
    if (isUndefinedDesc(fin.value)) {
      // undefined keeps the content (FIN-3)
    } else if (isContent(fin.value)) outcome = { ...outcome, content: jsonOf(fin.value), contentClause: 'FIN-3' }
    else if (!isLosslessDesc(fin.value)) outcome = { isError: true, clause: 'META-1' }
    else if (shapes.misshapen('finalize')) outcome = { ...outcome, content: jsonOf(fin.value), contentClause: 'FIN-3' }
    else outcome = outOfShape(undefined)
  }
  e.outcome = outcome
  return e
}
