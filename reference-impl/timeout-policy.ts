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
    const disarm = armDeadline(timeoutMs, () => deadline.abort(new DOMException('The tool timed out.', 'TimeoutError')))
    try {
      const result = await next({ signal: deadline.signal })
      if (!deadline.signal.aborted) return result
      return failure(`The tool did not finish within ${timeoutMs} ms.`, 'TOOL_TIMEOUT')
    } finally {
      disarm()
    }
  }
}

/** setTimeout fires at once for a delay past 2^31 - 1 ms: a longer (valid) timeoutMs is armed in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

function armDeadline(ms: number, fire: () => void): () => void {
  let timer = setTimeout(function step(left: number) {
    if (left <= 0) return fire()
    timer = setTimeout(step, Math.min(left, LONGEST_TIMER_MS), left - LONGEST_TIMER_MS)
  }, Math.min(ms, LONGEST_TIMER_MS), ms - LONGEST_TIMER_MS)
  return () => clearTimeout(timer)
}
