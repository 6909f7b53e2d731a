/**
 * SCP-2 for one guard function registered in two scopes: "A guard registered for A applies to A's
 * calls only" — and to all of them while that registration lives. A registry that keeps one scope,
 * or one disposer, per guard function loses a registration it was never told to drop.
 */
import fc from 'fast-check'
import { custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type GuardScope = 'A' | 'B' | 'global'

export interface GuardTwiceCase {
  /** Where the one guard function is registered, first and second (two different scopes). */
  scopes: [GuardScope, GuardScope]
  /** Which registration is disposed of before the calls, if one is. */
  disposed: 'none' | 'first' | 'second'
}

const scopePairs: fc.Arbitrary<[GuardScope, GuardScope]> = fc
  .tuple(fc.constantFrom<GuardScope>('A', 'B', 'global'), fc.constantFrom<GuardScope>('A', 'B', 'global'))
  .filter(([first, second]) => first !== second)

const guardTwiceCases: fc.Arbitrary<GuardTwiceCase> = fc.record({
  scopes: scopePairs,
  disposed: fc.constantFrom('none' as const, 'first' as const, 'second' as const),
})

const where = (scope: GuardScope) => (scope === 'global' ? 'globally' : `for agent ${scope}`)

const story = (c: GuardTwiceCase): string[] => [
  `tool target; one guard function that returns "no" registered ${where(c.scopes[0])}, then ${where(c.scopes[1])}`,
  ...(c.disposed === 'none' ? [] : [`the ${c.disposed} registration (${where(c.scopes[c.disposed === 'first' ? 0 : 1])}) disposed of`]),
  'target called as A, as B and with no agent: each call is denied exactly where a registration left covers its caller',
]

async function check(ctx: CustomContext, c: GuardTwiceCase): Promise<void> {
  const registry = await ctx.registry()
  const ran = new Set<string>()
  registry.register(liveTool('target', { execute: async (_args: unknown, run: { callId: string }) => (ran.add(run.callId), { ok: true }) }))
  const no = () => 'no'
  const disposers = c.scopes.map((scope) => registry.guard(no, scope === 'global' ? undefined : { agent: registry.agent(scope) }))
  if (c.disposed !== 'none') disposers[c.disposed === 'first' ? 0 : 1]!()
  const left = c.scopes.filter((_, i) => c.disposed !== (i === 0 ? 'first' : 'second'))
  for (const caller of ['A', 'B', undefined] as const) {
    const callId = `x-target-${caller ?? 'none'}`
    await registry.execute(input('target', {}, { callId, ...(caller ? { agent: registry.agent(caller) } : {}) }))
    const covered = left.some((scope) => scope === 'global' || scope === caller)
    const who = caller ? `agent ${caller}'s call` : 'a call with no agent'
    if (covered && ran.has(callId)) ctx.fail(`${who} ran although the guard is still registered ${left.map(where).join(' and ')}`)
    if (!covered && !ran.has(callId)) ctx.fail(`${who} was stopped although the guard is registered only ${left.map(where).join(' and ')}`)
  }
}

export const guardRegisteredTwice = custom(
  'SCP-2', 'one guard function registered in two scopes applies, while each registration lives, to the calls of its scope',
  guardTwiceCases,
  story,
  check,
)
