/**
 * DEF-2 for one definition object registered in two layers: "The returned disposer unregisters" —
 * the registration it was returned for, not the other one. A registry that finds a registration by
 * its definition object (keeping the latest) removes the wrong layer's tool.
 */
import { codeOf, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

export const twoLayersStory = (name: string, agentFirst: boolean): string =>
  `and in a registry of its own (with the scopes profile): one definition of ${name} registered ${
    agentFirst ? 'for agent A, then globally' : 'globally, then for agent A'}; the first registration disposed of; ` +
  `${name} called with no agent, as A and as B: each runs, unless its caller saw only the disposed registration (UNKNOWN_TOOL)`

/** `agentFirst`: A's registration is the first, and the one disposed of (the global one otherwise). */
export async function disposedInOneLayer(ctx: CustomContext, name: string, agentFirst: boolean): Promise<void> {
  if (!ctx.adapter.profiles.includes('scopes')) return
  const registry = await ctx.registry()
  const def = liveTool(name, { execute: async () => ({ ran: true }) })
  const forA = { agent: registry.agent('A') }
  const first = registry.register(def, agentFirst ? forA : undefined)
  try {
    registry.register(def, agentFirst ? undefined : forA)
  } catch {
    // No clause makes a registry take one definition object twice: a refusal leaves nothing to dispose of in one layer.
    return
  }
  first()
  for (const caller of [undefined, 'A', 'B'] as const) {
    const result = await registry.execute(input(name, {}, { callId: `x-${caller ?? 'none'}`, ...(caller ? { agent: registry.agent(caller) } : {}) }))
    // Only the global registration was disposed of, and only a caller with no tool of its own then sees none.
    const gone = !agentFirst && caller !== 'A'
    const who = caller ? `as ${caller}` : 'with no agent'
    const code = result.isError ? codeOf(registry, result) : undefined
    const kept = agentFirst ? 'the global one' : 'A\'s'
    if (gone && code !== 'UNKNOWN_TOOL') ctx.fail(`with the global registration disposed of, a call ${who} was not UNKNOWN_TOOL (${code ?? 'it ran'})`)
    if (!gone && result.isError) ctx.fail(`with ${kept} registration left, a call ${who} ended in error (${code})`)
  }
}
