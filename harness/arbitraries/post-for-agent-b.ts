/**
 * A post-execute decision added to a case without touching its own calls: a listener for agent B,
 * registered first, and a call by B, of the case's first call's tool or of a tool of its own. The
 * case's calls carry no agent, so they meet the listeners they met before; a case whose calls carry
 * one is left as it is.
 */
import type { DecisionSpec, Scenario, ToolSpec } from '../scenario/types.js'

export function withPostForAgentB(s: Scenario, decision: DecisionSpec, own?: ToolSpec): Scenario {
  const first = s.calls[0]
  if (!first || s.calls.some((c) => c.agent !== undefined) || s.tools.some((t) => t.name === own?.name)) return s
  const call = own ? { tool: own.name, args: {} } : { tool: first.tool, args: first.args }
  return {
    ...s,
    tools: own ? [...s.tools, own] : s.tools,
    post: [{ scope: 'B', timing: 'sync', decision }, ...s.post],
    calls: [...s.calls, { ...call, agent: 'B' }],
  }
}
