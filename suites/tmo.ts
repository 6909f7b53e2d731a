/** TMO: timeouts. These properties spend real time, so they run few cases. */
import fc from 'fast-check'
import { codeOf, custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { nowAndThen } from '../harness/property/vocabulary.js'
import type { ToolExecutionResult } from '../harness/contract/spec.js'
import { DELIVERY_GRACE_MS, sleep } from './real-time.js'
import { checkTimedOut, timedOutCase, timedOutStory } from './tmo-timed-out.js'

/** A case of TMO-1; in a third of them, a check of a shadowing agent's tool too, and in a third a nested call's. */
interface DeadlineCase { timeoutMs: number; overrunMs: number; withPolicy: boolean; shadowing?: true; nested?: true; redefined?: true }

/** A body that runs past the case's timeoutMs, and whether its signal had aborted by the time it finished. */
function overrunningBody(c: DeadlineCase): { execute: never; aborted: () => boolean } {
  let aborted = false
  const execute = async (_args: unknown, exec: { signal: AbortSignal }) => {
    await sleep(c.timeoutMs + c.overrunMs)
    aborted = exec.signal.aborted
    return { finished: true }
  }
  return { execute: execute as never, aborted: () => aborted }
}

/**
 * With the policy, agent A's tool declares no deadline and shadows a global tool that does: a
 * registry that takes the deadline from the global layer by name aborts A's body.
 */
async function shadowingToolHasNoDeadline(ctx: CustomContext, c: DeadlineCase): Promise<void> {
  if (!ctx.adapter.profiles.includes('scopes') || !ctx.adapter.profiles.includes('timeout')) return
  const registry = await ctx.registry({ timeoutPolicy: true })
  const agent = registry.agent('A')
  let shadowedRan = false
  const overrun = overrunningBody(c)
  registry.register(liveTool('slow', { timeoutMs: c.timeoutMs, execute: (async () => ((shadowedRan = true), { shadowed: true })) as never }))
  registry.register(liveTool('slow', { execute: overrun.execute }), { agent })
  const result = await registry.execute(input('slow', {}, { agent }))
  // The shadowed tool ran in the agent's tool's place: SCP-1's fault, judged there.
  if (shadowedRan) return
  if (result.isError) ctx.fail(`agent A's tool, declaring no timeoutMs, ended as an error (${codeOf(registry, result)}) beside a global one with a deadline`)
  if (overrun.aborted()) ctx.fail('the body of agent A\'s tool, declaring no timeoutMs, saw its signal abort (the deadline of the global tool it shadows)')
}

/**
 * With the policy, a tool with a deadline is called, disposed and registered again without one,
 * and its body now overruns: a deadline belongs to a definition, never to the name it had.
 */
async function redefinedToolHasNoDeadline(ctx: CustomContext, c: DeadlineCase): Promise<void> {
  if (!ctx.adapter.profiles.includes('timeout')) return
  const registry = await ctx.registry({ timeoutPolicy: true })
  const dispose = registry.register(liveTool('slow', { timeoutMs: c.timeoutMs }))
  await registry.execute(input('slow'))
  dispose()
  const overrun = overrunningBody(c)
  registry.register(liveTool('slow', { execute: overrun.execute }))
  const result = await registry.execute(input('slow'))
  if (result.isError) ctx.fail(`slow, registered again without timeoutMs, ended as an error (${codeOf(registry, result)})`)
  if (overrun.aborted()) ctx.fail('the body of slow, registered again without timeoutMs, saw its signal abort (the deadline of the disposed definition)')
}

/**
 * With the policy, tool parent has a deadline and its body makes a nested call (its token as
 * parent, a signal of its own) to child, which declares none and runs past the parent's deadline:
 * the nested call is an execution of its own, with child's deadline (none), never what is left of its parent's.
 */
async function nestedCallHasNoDeadline(ctx: CustomContext, c: DeadlineCase): Promise<void> {
  if (!ctx.adapter.profiles.includes('code') || !ctx.adapter.profiles.includes('timeout')) return
  const registry = await ctx.registry({ timeoutPolicy: true })
  const child = overrunningBody(c)
  let childResult: ToolExecutionResult | undefined
  registry.register(liveTool('child', { execute: child.execute }))
  registry.register(liveTool('parent', {
    timeoutMs: c.timeoutMs,
    execute: (async (_args: unknown, exec: { token: unknown }) => {
      childResult = await registry.execute(input('child', {}, { parent: exec.token as never }))
      return { parent: true }
    }) as never,
  }))
  await registry.execute(input('parent'))
  if (child.aborted()) ctx.fail('the nested call to child, whose tool declares no timeoutMs, saw its signal abort (its parent\'s deadline)')
  else if (childResult?.isError) ctx.fail(`the nested call to child, whose tool declares no timeoutMs, ended as an error (${codeOf(registry, childResult)})`)
}

export default [
  custom(
    'TMO-1', 'the registry arms no timer of its own: without the policy a body past timeoutMs completes; with it, a tool without timeoutMs has no deadline',
    fc.record({
      timeoutMs: fc.integer({ min: 1, max: 4 }),
      overrunMs: fc.integer({ min: 5, max: 15 }),
      withPolicy: fc.boolean(),
    }).chain(nowAndThen((c): DeadlineCase => ({ ...c, shadowing: true }), 3)).chain(nowAndThen((c): DeadlineCase => ({ ...c, nested: true }), 3))
      .chain(nowAndThen((c): DeadlineCase => ({ ...c, redefined: true }), 3)),
    (c: DeadlineCase) => [
      c.withPolicy
        ? `tool slow, without timeoutMs: its body takes ${c.timeoutMs + c.overrunMs} ms`
        : `tool slow, timeoutMs ${c.timeoutMs}: its body takes ${c.timeoutMs + c.overrunMs} ms`,
      c.withPolicy ? 'the registry has the timeout policy (when the adapter offers it)' : 'the registry has no timeout policy',
      `one call to slow, its arguments { timeoutMs: ${c.timeoutMs} } (arguments are the model's, no configuration)`,
      ...(c.shadowing ? [
        'then, where the adapter has scopes and the policy, in a registry of its own with the policy: a global tool slow ' +
          `with timeoutMs ${c.timeoutMs}, agent A's own slow without timeoutMs whose body takes ${c.timeoutMs + c.overrunMs} ms, one call to slow as agent A`,
      ] : []),
      ...(c.nested ? [
        'then, where the adapter has the code profile and the policy, in a registry of its own with the policy: tool parent with ' +
          `timeoutMs ${c.timeoutMs}, whose body calls child (its token as parent); child declares no timeoutMs and takes ` +
          `${c.timeoutMs + c.overrunMs} ms; one call to parent`,
      ] : []),
      ...(c.redefined ? [
        `then, where the adapter has the policy, in a registry of its own with the policy: slow with timeoutMs ${c.timeoutMs} is ` +
          `called, disposed, and registered again without timeoutMs, its body now taking ${c.timeoutMs + c.overrunMs} ms; one call to it`,
      ] : []),
    ],
    async (ctx, c) => {
      if (c.shadowing) await shadowingToolHasNoDeadline(ctx, c)
      if (c.nested) await nestedCallHasNoDeadline(ctx, c)
      if (c.redefined) await redefinedToolHasNoDeadline(ctx, c)
      const withPolicy = c.withPolicy && ctx.adapter.profiles.includes('timeout')
      const registry = await ctx.registry(withPolicy ? { timeoutPolicy: true } : {})
      let bodySignal: AbortSignal | undefined
      const overrun = async (_args: unknown, exec: { signal: AbortSignal }) => {
        bodySignal = exec.signal
        await sleep(c.timeoutMs + c.overrunMs)
        return { finished: true }
      }
      registry.register(withPolicy ? liveTool('slow', { execute: overrun as never }) : liveTool('slow', { timeoutMs: c.timeoutMs, execute: overrun as never }))
      const result = await registry.execute(input('slow', { timeoutMs: c.timeoutMs }))
      if (result.isError) ctx.fail(`the overrunning body ended as an error (${codeOf(registry, result)})`)
      if (bodySignal?.aborted) ctx.fail('the body\'s signal was aborted although no deadline applies')
    },
    'core', 12, 1000,
  ),

  custom(
    'TMO-2', 'with the timeout policy, a body still running at timeoutMs sees its signal abort, and the outcome is TOOL_TIMEOUT only once the body has settled',
    timedOutCase,
    timedOutStory,
    checkTimedOut,
    // The budget outlasts the delivery grace: an abort that crosses a starved process late is not a hang.
    'timeout', 12, DELIVERY_GRACE_MS + 1000,
  ),
]
