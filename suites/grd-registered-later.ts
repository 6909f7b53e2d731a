/**
 * GRD-2 within one registry: "no listener, order or later registration turns a guard denial into
 * an execution." A call runs past a guard that passes; a denial is then registered (a guard, or a
 * listener that only denies), and the identical call made again must not execute. A registry that
 * remembers a call's earlier pass never asks the denial it was given since. And one guard function
 * registered globally, then for agent A too, denies every caller's call still.
 */
import { input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'

export const laterDenialStory = (addGuard: boolean): string =>
  `and in a registry of its own: tool target behind a guard that passes, one call to target, ${
    addGuard ? 'a guard that returns "no"' : 'a pre-execute listener that denies (where the adapter has that seam)'} registered, the same call again`

export async function deniedWhenRegisteredLater(ctx: CustomContext, addGuard: boolean): Promise<void> {
  // A library without the pre-execute seam has no listener to add (the scenario check cuts it too).
  if (!addGuard && !seamsOf(ctx.adapter).has('pre-execute')) return
  const registry = await ctx.registry()
  let bodies = 0
  registry.register(liveTool('target', { execute: async () => (bodies++, { ok: true }) }))
  registry.guard(() => undefined)
  const call = (n: number) => registry.execute(input('target', { path: 'p' }, { callId: `x-target-${n}` }))
  await call(1)
  if (bodies !== 1) return
  if (addGuard) registry.guard(() => 'no')
  else registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
  await call(2)
  if (bodies > 1) ctx.fail(`a ${addGuard ? 'guard' : 'deny-only listener'} registered after the first call let the identical second call execute`)
}

export const twiceRegisteredStory =
  'and in a registry of its own (with the scopes profile): tool target, one guard function that returns "no" registered globally, ' +
  'then the same function registered for agent A too, and for agent B a guard of its own that passes; target called for no agent, for B and for A'

/**
 * A later registration of the same guard function, for agent A, takes nothing from its global
 * registration; nor does a guard of B's own (a global guard stands beside an agent's, never behind it).
 */
export async function deniedWhenRegisteredTwice(ctx: CustomContext): Promise<void> {
  if (!ctx.adapter.profiles.includes('scopes')) return
  const registry = await ctx.registry()
  const ran: string[] = []
  registry.register(liveTool('target', { execute: async (_args: unknown, run: { callId: string }) => (ran.push(run.callId), { ok: true }) }))
  const no = () => 'no'
  registry.guard(no)
  registry.guard(no, { agent: registry.agent('A') })
  registry.guard(() => undefined, { agent: registry.agent('B') })
  for (const agent of [undefined, 'B', 'A']) {
    const callId = `x-target-${agent ?? 'none'}`
    await registry.execute(input('target', { path: 'p' }, { callId, ...(agent ? { agent: registry.agent(agent) } : {}) }))
  }
  if (ran.length > 0) ctx.fail(`a guard registered globally (and again for A, with a passing guard of B's own) let ${ran.join(', ')} execute`)
}
