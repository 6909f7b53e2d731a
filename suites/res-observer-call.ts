/**
 * RES-1 for a call an observer makes: "Observers are notified exactly once per `execute`". A call
 * started while observers are being notified is an execute like any other, and one that ends at
 * once (an unknown tool, a signal already aborted) is notified then or later, never dropped: a
 * registry that guards its notification loop against feedback by skipping what arrives meanwhile loses it.
 */
import fc from 'fast-check'
import { custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ToolExecutionResult } from '../harness/contract/spec.js'

export interface ObserverCallCase {
  /** How the observer's own call ends at once: its tool is not registered, or its signal was aborted before the call. */
  endsAtOnce: 'unknown-tool' | 'aborted'
  /** Whether the calling observer is registered after the one that listens (it is first otherwise). */
  callerLast: boolean
}

const observerCallCases: fc.Arbitrary<ObserverCallCase> = fc.record({
  endsAtOnce: fc.constantFrom('unknown-tool' as const, 'aborted' as const),
  callerLast: fc.boolean(),
})

const story = (c: ObserverCallCase): string[] => [
  'tool outer: its body returns { ok: true }',
  `two observers: one listens; the other, registered ${c.callerLast ? 'second' : 'first'}, on its first notification calls ${
    c.endsAtOnce === 'unknown-tool' ? 'tool missing (never registered)' : 'outer with a signal already aborted'}`,
  'one call to outer; each observer hears of both calls, each once, with what each resolved with',
]

async function check(ctx: CustomContext, c: ObserverCallCase): Promise<void> {
  const registry = await ctx.registry()
  registry.register(liveTool('outer', { execute: async () => ({ ok: true }) }))
  const heard: ToolExecutionResult[] = []
  const listen = () => registry.onResult((_exec, result) => void heard.push(result))
  let own: Promise<ToolExecutionResult> | undefined
  let called = false
  // Set before the call: a registry may notify of it before execute returns.
  const callerHeard: ToolExecutionResult[] = []
  const call = () => registry.onResult((_exec, result) => {
    callerHeard.push(result)
    if (called) return
    called = true
    const aborted = new AbortController()
    aborted.abort()
    own = c.endsAtOnce === 'unknown-tool'
      ? registry.execute(input('missing', {}, { callId: 'x-missing' }))
      : registry.execute(input('outer', {}, { callId: 'x-outer-aborted', signal: aborted.signal }))
  })
  if (c.callerLast) (listen(), call())
  else (call(), listen())
  const outer = await registry.execute(input('outer', {}, { callId: 'x-outer' }))
  if (!own) return ctx.fail('the observer that calls was never notified of the call to outer')
  const ownResult = await own
  // Let a registry that queues notifications made during notification deliver them.
  await new Promise((resolve) => setImmediate(resolve))
  const times = (list: ToolExecutionResult[], result: ToolExecutionResult) => list.filter((r) => r === result).length
  for (const [who, list] of [['the listening observer', heard], ['the observer that made the call', callerHeard]] as const) {
    if (times(list, outer) !== 1) ctx.fail(`${who} heard of the call to outer ${times(list, outer)} times`)
    if (times(list, ownResult) !== 1) ctx.fail(`${who} heard ${times(list, ownResult)} times of the call made by an observer (${c.endsAtOnce})`)
  }
}

export const observerCall = custom(
  'RES-1', 'a call an observer makes, ending at once, is notified to every observer once, the one that made it too',
  observerCallCases, story, check,
)
