/** SCP: scopes. */
import fc from 'fast-check'
import { ANY_SCHEMA, guard, quiet, scenario, tool, type ToolSpec } from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'

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

export default [
  judged(
    'SCP-1', 'a tool registered for agent A shadows a same-named global tool for A alone; others still see the global one',
    scenario({ ...quiet, tools: shadowed, calls: { max: 3, agents: true } }),
  ),
  judged(
    'SCP-2', 'a guard registered for agent A applies to A\'s calls only',
    scenario({
      ...quiet,
      guards: fc.array(guard.map((g) => ({ ...g, scope: g.scope ?? 'A' as const })), { minLength: 1, maxLength: 3 }),
      calls: { max: 3, agents: true },
    }),
  ),
]
