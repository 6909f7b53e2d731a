/**
 * Stage 9: the authoritative result. Honours RES-2 (sealed results are deep-frozen before anyone
 * sees them), RES-3 (a success has value and no error; a failure has error and no value;
 * concludesTurn only on a success), META-1/META-2 (only known, lossless-JSON fields are published;
 * anything else is an error here, at the source), CTX-2 (concludesTurn iff a success whose body
 * concluded), RES-1 and RES-4 (observers are notified once, in order, with the very object execute
 * resolves with; one that throws changes nothing).
 */
import type { ResultObserver } from '../../harness/contract/adapter.js'
import type { ToolExecution, ToolExecutionResult, UserMessage } from '../../harness/contract/spec.js'
import { checkContent, checkContexts } from '../content.js'
import { deepFreeze, snapshotJson } from '../json/lossless.js'
import { failure } from '../outcomes.js'
import { swallowIfThenable } from './abort.js'

/** Rebuilds the result from its known fields, checks each, and deep-freezes it. */
export function seal(result: ToolExecutionResult, concluded: boolean): ToolExecutionResult {
  const content = checkContent(result.content)
  const contexts = result.additionalContexts === undefined ? undefined : checkContexts(result.additionalContexts)
  const meta = result.meta === undefined ? undefined : snapshotJson(result.meta)
  const problem =
    (!content.ok && content.reason) || (contexts && !contexts.ok && contexts.reason) || (meta && !meta.ok && `meta: ${meta.reason}`)
  if (problem) return deepFreeze(failure(`The outcome is not lossless JSON: ${problem}`, 'INVALID_TOOL_OUTPUT'))
  const out: Record<string, unknown> = { isError: result.isError }
  if (result.isError) {
    const { message, code } = result.error
    out.error = typeof code === 'string' ? { message: String(message), code } : { message: String(message) }
  } else {
    out.value = result.value
  }
  out.content = content.ok ? content.value : []
  if (meta?.ok) out.meta = meta.value
  const messages: UserMessage[] | undefined = contexts?.ok ? contexts.value : undefined
  if (messages && messages.length > 0) out.additionalContexts = messages
  if (!result.isError && concluded) out.concludesTurn = true
  return deepFreeze(out as ToolExecutionResult)
}

export function notifyObservers(observers: readonly ResultObserver[], exec: ToolExecution, result: ToolExecutionResult): void {
  for (const observer of observers) {
    try {
      swallowIfThenable(observer(exec, result))
    } catch {
      // RES-4: an observer's failure is its own.
    }
  }
}
