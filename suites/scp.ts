/** SCP: scopes. */
import fc from 'fast-check'
import {
  ANY_SCHEMA, guard, nowAndThenWith, quiet, safeJson, scenario, tool, toolName, toolOfItsOwn,
  type AgentName, type DispatchStep, type Scenario, type ToolSpec,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { alongside, withDirect } from './with-direct.js'
import { registeredAfterUse } from './scp-registered-after-use.js'
import { EVERY_PAIR, guardRegisteredTwice } from './scp-guard-twice.js'

/** The same name registered globally and for one agent, so shadowing decides which body runs. */
const shadowed = fc.tuple(tool(), tool(), fc.constantFrom<'A' | 'B'>('A', 'B')).map(([global, own, agent]): ToolSpec[] => [
  { ...global, body: { steps: [], outcome: { kind: 'return', value: 1 } }, outputSchema: ANY_SCHEMA, render: { kind: 'json-text' } },
  {
    ...own,
    name: global.name,
    scope: agent,
    body: { steps: [], outcome: { kind: 'return', value: 2 } },
    outputSchema: ANY_SCHEMA,
    render: { kind: 'json-text' },
  },
])

/**
 * In half of SCP-1's scenario cases a program of its own, called last (for agent A or for none),
 * calls the shadowed name as a nested call, for its own caller or another: the nested call runs the
 * layer the agent it carries sees. Drawn last.
 */
const nestedCallers = fc.constantFrom<[AgentName | undefined, DispatchStep['agent']]>(
  ['A', undefined], [undefined, 'A'], [undefined, 'B'], ['A', 'none'], ['A', 'B'], ['B', 'A'],
)
function withNestedShadowCall(s: Scenario, [parent, nested]: [AgentName | undefined, DispatchStep['agent']]): Scenario {
  const [global] = s.tools
  if (!global || s.tools.some((t) => t.name === PROGRAM)) return s
  const dispatch: DispatchStep = { kind: 'dispatch', tool: global.name, args: {}, ...(nested ? { agent: nested } : {}) }
  const program = toolOfItsOwn(global, PROGRAM, { body: { steps: [dispatch], outcome: { kind: 'return', value: 0 } } })
  return { ...s, tools: [...s.tools, program], calls: [...s.calls, { tool: PROGRAM, args: {}, ...(parent ? { agent: parent } : {}) }] }
}
const PROGRAM = 'program'

/** What each agent is shown: the listing, not only the call, holds the layer that agent sees. */
const listedLayer = custom(
  'SCP-1', 'schemas({ agent }) lists a shadowed name from the layer that agent sees',
  fc.record({ name: toolName, owner: fc.constantFrom<'A' | 'B'>('A', 'B'), globalFirst: fc.boolean(), ownDisposed: fc.boolean() }),
  (c) => [
    `tool ${c.name} registered globally (description "global") and for agent ${c.owner} (description "own"), ` +
      `${c.globalFirst ? 'the global one' : 'the agent\'s'} first`,
    'schemas() is read, and schemas({ agent }) for A and for B',
    ...(c.ownDisposed ? [`then agent ${c.owner}'s tool is disposed, and ${c.name} is called with no agent, as A and as B: each runs the global one`] : []),
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const registerGlobal = () => registry.register(liveTool(c.name, { description: 'global', execute: async () => ({ layer: 'global' }) }))
    const registerOwn = () => registry.register(liveTool(c.name, { description: 'own' }), { agent: registry.agent(c.owner) })
    if (c.globalFirst) registerGlobal()
    const disposeOwn = registerOwn()
    if (!c.globalFirst) registerGlobal()
    const listings = (owner: 'A' | 'B') => {
      for (const agent of [undefined, 'A', 'B'] as const) {
        const listed = registry.schemas(agent === undefined ? undefined : { agent: registry.agent(agent) }) as { name?: unknown; description?: unknown }[]
        const shown = listed.filter((entry) => entry.name === c.name).map((entry) => entry.description)
        const expected = agent === owner ? 'own' : 'global'
        const whose = agent === undefined ? 'schemas()' : `schemas({ agent: ${agent} })`
        if (shown.length !== 1 || shown[0] !== expected) ctx.fail(`${whose} listed ${c.name} as ${safeJson(shown)}, not the ${expected} tool alone`)
      }
    }
    listings(c.owner)
    if (!c.ownDisposed) return
    disposeOwn()
    // Which layer a listing shows after a disposal is SCH-1's; which tool a call runs is this clause's.
    for (const agent of [undefined, 'A', 'B'] as const) {
      const result = await registry.execute(input(c.name, {}, agent === undefined ? {} : { agent: registry.agent(agent) }))
      const ran = result.isError ? `an error (${codeOf(registry, result)})` : safeJson((result as { value?: unknown }).value)
      const caller = agent ? `as ${agent}` : 'with no agent'
      if (ran !== '{"layer":"global"}') ctx.fail(`after agent ${c.owner}'s ${c.name} was disposed, a call ${caller} got ${ran}, not the global tool`)
    }
  },
)

export default [
  alongside(withDirect(judged(
    'SCP-1', 'a tool registered for agent A shadows a same-named global tool for A alone; others still see the global one',
    scenario({ ...quiet, tools: shadowed, calls: { max: 3, agents: true } }).chain(nowAndThenWith(nestedCallers, withNestedShadowCall, 2)),
  ), listedLayer, { scenario: 2, direct: 1 }), registeredAfterUse, { uses: ['call', 'schemas', 'executionMode'] }),
  alongside(judged(
    'SCP-2', 'a guard registered for agent A applies to A\'s calls only',
    scenario({
      ...quiet,
      guards: fc.array(guard.map((g) => ({ ...g, scope: g.scope ?? 'A' as const })), { minLength: 1, maxLength: 3 }),
      calls: { max: 3, agents: true },
    }),
  ), guardRegisteredTwice, EVERY_PAIR),
]
