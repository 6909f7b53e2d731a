/**
 * Stage 8: `finalizeContent`, the tool's last mile. Honours FIN-1 (the callback was fixed at entry),
 * FIN-2 (the orchestrator calls this exactly once per outcome of a routed call), FIN-3 (it gets
 * the immutable execution and the sealed result; undefined keeps the content; blocks replace only
 * content), FIN-4 (a throw is not retried and yields an error, never the unfinalized success),
 * META-1 (finalizer output that is not lossless JSON is an error at the source).
 */
import type { ToolExecutionResult } from '../../harness/contract/spec.js'
import { checkContent } from '../content.js'
import { describeThrown } from '../json/lossless.js'
import { failure } from '../outcomes.js'
import { swallowIfThenable } from './abort.js'
import type { CallState } from './call-state.js'

export function finalize(call: CallState, sealed: ToolExecutionResult): ToolExecutionResult {
  const { finalizeContent, source } = call.tool
  if (!finalizeContent) return sealed
  let blocks: unknown
  try {
    blocks = finalizeContent.call(source, call.exec, sealed)
  } catch (error) {
    return withContexts(failure(`finalizeContent failed: ${describeThrown(error)}`), sealed)
  }
  if (blocks === undefined) return sealed
  swallowIfThenable(blocks)
  const content = checkContent(blocks)
  if (!content.ok) return withContexts(failure(`finalizeContent returned invalid content: ${content.reason}`, 'INVALID_TOOL_OUTPUT'), sealed)
  return { ...sealed, content: content.value }
}

/** Contexts are registry-owned: a finalizer failure does not lose them (FIN-3). */
function withContexts(result: ToolExecutionResult, from: ToolExecutionResult): ToolExecutionResult {
  return from.additionalContexts ? { ...result, additionalContexts: from.additionalContexts } : result
}
