/**
 * Stage 2: `tools/pre-execute`, the tri-state waterfall. Honours PRE-1 (registration order, allow
 * when all delegate), PRE-2 (deny ends the call), PRE-3 (a malformed decision anywhere is a denial),
 * PRE-4 (a throwing listener ends the call in error), PRE-6 (every pending listener is awaited,
 * never abandoned; the caller re-checks cancellation after), PRE-7 (scoped listeners, chosen at
 * entry), PRE-8 (idempotent next).
 */
import type { PreToolDecision } from '../../harness/contract/spec.js'
import type { CallState, PreOutcome } from './call-state.js'

export type { PreOutcome } from './call-state.js'

const ALLOW: PreToolDecision = Object.freeze({ kind: 'allow' })
export const MALFORMED_REASON = 'A pre-execute listener returned a malformed decision.'

export async function preExecute(call: CallState): Promise<PreOutcome> {
  let malformed = false
  const normalize = (raw: unknown): PreToolDecision => {
    const decision = normalizePreDecision(raw)
    if (decision) return decision
    malformed = true
    return { kind: 'deny', reason: MALFORMED_REASON }
  }
  const listeners = call.pre.map((listener) => (next: () => Promise<PreToolDecision>) => listener(call.exec, next))
  const { decision, threw } = await call.stages.waterfall(listeners, () => ALLOW, normalize)
  if (threw || !decision) return { kind: 'failed' }
  // Fail-closed is sticky: an outer listener cannot turn an inner malformed decision into an allow.
  return malformed ? { kind: 'deny', reason: MALFORMED_REASON } : decision
}

/** Exactly one of the three shapes, or undefined (PRE-3). */
export function normalizePreDecision(raw: unknown): PreToolDecision | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  try {
    const { kind, reason } = raw as { kind?: unknown; reason?: unknown }
    if (kind === 'allow') return ALLOW
    if (kind === 'deny') return typeof reason === 'string' ? { kind: 'deny', reason } : undefined
    if (kind === 'ask') {
      if (reason === undefined) return { kind: 'ask' }
      return typeof reason === 'string' ? { kind: 'ask', reason } : undefined
    }
    return undefined
  } catch {
    return undefined
  }
}
