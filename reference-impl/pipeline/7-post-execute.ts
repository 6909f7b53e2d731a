/**
 * Stage 7: `tools/post-execute`. Honours PST-1 (listeners see the result frozen; accept, replace
 * content, replace value — re-validated and re-rendered — or block), PST-2 (no resurrection: an
 * error stays an error, and replacing a failed result's value is itself an error), PST-3 (both
 * value and content, a malformed decision anywhere, or a throwing listener end in error), PRE-8
 * (idempotent next, via the shared waterfall), OUT-5 (content or
 * contexts of the wrong shape are INVALID_TOOL_OUTPUT).
 */
import type { JsonValue, PostToolDecision, ToolExecutionResult, UserMessage } from '../../harness/contract/spec.js'
import { checkContent, checkContexts } from '../content.js'
import { deepFreeze } from '../json/lossless.js'
import { failure, invalidOutput } from '../outcomes.js'
import type { CallState, PostOutcome } from './call-state.js'

export type { PostOutcome } from './call-state.js'

const ACCEPT: PostToolDecision = Object.freeze({ kind: 'accept' })
const MALFORMED = Symbol('malformed')
/** Content or contexts that are lossless JSON of the wrong shape: INVALID_TOOL_OUTPUT (OUT-5). */
const OUT_OF_SHAPE = Symbol('out of shape')
type Normalized = PostToolDecision | typeof MALFORMED | typeof OUT_OF_SHAPE

export async function postExecute(call: CallState, result: ToolExecutionResult): Promise<PostOutcome> {
  if (call.post.length === 0) return { result, contexts: [] }
  const seen = deepFreeze(result)
  let malformed = false
  let outOfShape = false
  const normalize = (raw: unknown): Normalized => {
    const decision = normalizePostDecision(raw)
    if (decision === MALFORMED) malformed = true
    if (decision === OUT_OF_SHAPE) outOfShape = true
    return decision
  }
  const listeners = call.post.map(
    (listener) => (next: () => Promise<Normalized>) =>
      listener(call.exec, seen, next as () => Promise<PostToolDecision>),
  )
  const { decision, threw } = await call.stages.waterfall<Normalized>(listeners, () => ACCEPT, normalize)
  if (threw || !decision) return { result: failure('A post-execute listener failed.'), contexts: [] }
  if (malformed || decision === MALFORMED) return { result: failure('A post-execute listener returned a malformed decision.'), contexts: [] }
  if (outOfShape || decision === OUT_OF_SHAPE) return {
    result: invalidOutput('a post-execute decision has content or contexts of the wrong shape'),
    contexts: [],
  }
  return applyDecision(call, seen, decision)
}

function applyDecision(call: CallState, result: ToolExecutionResult, decision: PostToolDecision): PostOutcome {
  const contexts = decision.additionalContexts ?? []
  if (decision.kind === 'block') {
    return { result: failure('Blocked by a post-execute listener.', undefined, decision.feedback), contexts }
  }
  if ('value' in decision) {
    if (result.isError) return { result: failure('A post-execute listener tried to replace the value of a failed result.'), contexts: [] }
    return { result: call.stages.valueToResult(call, decision.value), contexts }
  }
  if (decision.content) return { result: { ...result, content: decision.content }, contexts }
  return { result, contexts }
}

/** One of the PostToolDecision shapes with checked parts, or MALFORMED (PST-3). */
export function normalizePostDecision(raw: unknown): Normalized {
  if (typeof raw !== 'object' || raw === null) return MALFORMED
  try {
    const d = raw as Record<string, unknown>
    let additionalContexts: UserMessage[] | undefined
    if (d.additionalContexts !== undefined) {
      const checked = checkContexts(d.additionalContexts)
      if (!checked.ok) return checked.lossless ? OUT_OF_SHAPE : MALFORMED
      additionalContexts = checked.value
    }
    const withContexts = (decision: PostToolDecision): PostToolDecision =>
      additionalContexts ? { ...decision, additionalContexts } : decision
    if (d.kind === 'block') {
      const feedback = checkContent(d.feedback)
      if (!feedback.ok) return feedback.lossless ? OUT_OF_SHAPE : MALFORMED
      return withContexts({ kind: 'block', feedback: feedback.value })
    }
    if (d.kind !== 'accept') return MALFORMED
    const hasValue = 'value' in d
    const hasContent = d.content !== undefined
    if (hasValue && hasContent) return MALFORMED
    if (hasValue) return withContexts({ kind: 'accept', value: d.value as JsonValue })
    if (hasContent) {
      const content = checkContent(d.content)
      if (!content.ok) return content.lossless ? OUT_OF_SHAPE : MALFORMED
      return withContexts({ kind: 'accept', content: content.value })
    }
    return withContexts({ kind: 'accept' })
  } catch {
    return MALFORMED
  }
}
