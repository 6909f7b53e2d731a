/**
 * SCP-2 for one guard function registered in two scopes: "A guard registered for A applies to A's
 * calls only" — and to all of them while that registration lives. A registry that keeps one scope,
 * or one disposer, per guard function loses a registration it was never told to drop.
 */
import fc from 'fast-check'
import { custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

type GuardScope = 'A' | 'B' | 'global'

export interface GuardTwice {
  /** Where the one guard function is registered, first and second (two different scopes). */
  scopes: [GuardScope, GuardScope]
  /** Which registration is disposed of before the calls, if one is. */
  disposed: 'none' | 'first' | 'second'
}

/** The registrations a case makes, a registry each. */
export interface GuardTwiceCase {
  each: GuardTwice[]
}

const SCOPE_PAIRS: [GuardScope, GuardScope][] = [['A', 'B'], ['B', 'A'], ['A', 'global'], ['B', 'global'], ['global', 'A'], ['global', 'B']]

/** Every pair of scopes, with each registration disposed of or none. */
export const EVERY_PAIR: GuardTwiceCase = {
  each: SCOPE_PAIRS.flatMap((scopes) => (['none', 'first', 'second'] as const).map((disposed) => ({ scopes, disposed }))),
}

const guardTwiceCases: fc.Arbitrary<GuardTwiceCase> = fc.record({
  each: fc.array(fc.record({ scopes: fc.constantFrom(...SCOPE_PAIRS), disposed: fc.constantFrom('none' as const, 'first' as const, 'second' as const) }), {
    minLength: 1, maxLength: 3,
  }),
})

const where = (scope: GuardScope) => (scope === 'global' ? 'globally' : `for agent ${scope}`)

const pairWords = (c: GuardTwice) => `${where(c.scopes[0])}, then ${where(c.scopes[1])}${
  c.disposed === 'none' ? '' : `, the ${c.disposed} registration disposed of`}`

const story = (c: GuardTwiceCase): string[] => [
  'tool target; one guard function that returns "no", registered twice in a registry each (an agent registration passes one',
  'options object, its agent changed before each):',
  ...c.each.map(pairWords),
  'each time, target called as A, as B and with no agent: each call is denied exactly where a registration left covers its caller',
]

async function checkPair(ctx: CustomContext, c: GuardTwice): Promise<void> {
  const registry = await ctx.registry()
  const ran = new Set<string>()
  registry.register(liveTool('target', { execute: async (_args: unknown, run: { callId: string }) => (ran.add(run.callId), { ok: true }) }))
  const no = () => 'no'
  // One options object, changed between the registrations as a caller reusing it would: the scope is what it held at registration.
  const options: { agent?: unknown } = {}
  const register = (scope: GuardScope) =>
    (scope === 'global' ? registry.guard(no) : registry.guard(no, Object.assign(options, { agent: registry.agent(scope) })))
  const disposers = c.scopes.map(register)
  if (c.disposed !== 'none') disposers[c.disposed === 'first' ? 0 : 1]!()
  const left = c.scopes.filter((_, i) => c.disposed !== (i === 0 ? 'first' : 'second'))
  for (const caller of ['A', 'B', undefined] as const) {
    const callId = `x-target-${caller ?? 'none'}`
    await registry.execute(input('target', {}, { callId, ...(caller ? { agent: registry.agent(caller) } : {}) }))
    const covered = left.some((scope) => scope === 'global' || scope === caller)
    const who = `${pairWords(c)}: ${caller ? `agent ${caller}'s call` : 'a call with no agent'}`
    const registered = left.map(where).join(' and ')
    if (covered && ran.has(callId)) return ctx.fail(`${who} ran although the guard is still registered ${registered}`)
    if (!covered && !ran.has(callId)) return ctx.fail(`${who} was stopped although the guard is registered only ${registered}`)
  }
}

async function check(ctx: CustomContext, c: GuardTwiceCase): Promise<void> {
  for (const pair of c.each) await checkPair(ctx, pair)
}

export const guardRegisteredTwice = custom(
  'SCP-2', 'one guard function registered in two scopes applies, while each registration lives, to the calls of its scope',
  guardTwiceCases,
  story,
  check,
)
