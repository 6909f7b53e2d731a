/**
 * The timeout policy, an installable `tools/execute` wrapper. Honours TMO-1 (the registry arms no
 * timer of its own: without this wrapper nothing has a deadline, and with it a tool declaring no
 * timeoutMs has none) and TMO-2 (at timeoutMs the body's signal aborts, and the outcome becomes
 * TOOL_TIMEOUT only once the body has settled). CAN-4 keeps that TOOL_TIMEOUT as it is.
 */
import type { ExecuteWrapper } from '../harness/contract/adapter.js'
import type { ToolExecution } from '../harness/contract/spec.js'
import { failure } from './outcomes.js'
import type { RegistryContext } from './pipeline/call-state.js'

export function timeoutPolicy(registry: Pick<RegistryContext, 'calls'>): ExecuteWrapper {
  return async (exec: ToolExecution, next) => {
    const timeoutMs = registry.calls.get(exec)?.tool.timeoutMs
    if (timeoutMs === undefined) return next()
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(new DOMException('The tool timed out.', 'TimeoutError')), timeoutMs)
    try {
      const result = await next({ signal: deadline.signal })
      if (!deadline.signal.aborted) return result
      return failure(`The tool did not finish within ${timeoutMs} ms.`, 'TOOL_TIMEOUT')
    } finally {
      clearTimeout(timer)
    }
  }
}
