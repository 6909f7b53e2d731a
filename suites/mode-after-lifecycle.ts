/**
 * MODE-1 and MODE-2 across a tool's lifecycle: the verdict is the visible tool's, asked anew each
 * time. A tool judged parallel and then disposed of, or registered again with a classifier that
 * answers anything but true, is exclusive from then on, for the same name and the same arguments.
 */
import fc from 'fast-check'
import { toolName } from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolExecutionMode } from '../harness/contract/spec.js'

const CHANGES = {
  'dispose': 'is disposed of',
  'replace-unsafe': 'is disposed of and registered again, its classifier answering false',
  'replace-unclassified': 'is disposed of and registered again with no classifier',
} as const

export interface LifecycleCase {
  name: string
  change: keyof typeof CHANGES
  /** The tool is agent A's and A asks (where the adapter has scopes), or it is global and no agent asks. */
  forAgent: boolean
}

const lifecycleCase: fc.Arbitrary<LifecycleCase> = fc.record({
  name: toolName,
  change: fc.constantFrom<LifecycleCase['change']>('dispose', 'replace-unsafe', 'replace-unclassified'),
  forAgent: fc.boolean(),
})

const kindOf = (mode: ToolExecutionMode): unknown => (mode as { kind?: unknown } | undefined)?.kind

export const modeAfterLifecycle = custom(
  'MODE-2',
  'a tool disposed of, or registered again without an exact true, is exclusive from then on, for the same name and arguments',
  lifecycleCase,
  (c) => [
    `tool ${c.name}${c.forAgent ? ', agent A\'s,' : ''} whose classifier answers true; executionMode is asked${c.forAgent ? ' by A' : ''}`,
    `then the tool ${CHANGES[c.change]}, and executionMode is asked again with the same input`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const scope = c.forAgent && ctx.adapter.profiles.includes('scopes') ? { agent: registry.agent('A') } : undefined
    const args: JsonValue = { path: 'same' }
    const asked = () => registry.executionMode(input(c.name, args, scope ?? {}))
    const dispose = registry.register(liveTool(c.name, { isConcurrencySafe: () => true }), scope)
    // A first verdict other than parallel is MODE-1's to judge, not this clause's.
    if (kindOf(asked()) !== 'parallel') return
    dispose()
    if (c.change === 'replace-unsafe') registry.register(liveTool(c.name, { isConcurrencySafe: () => false }), scope)
    if (c.change === 'replace-unclassified') registry.register(liveTool(c.name), scope)
    const after = kindOf(asked())
    if (after !== 'exclusive') ctx.fail(`after the tool ${CHANGES[c.change]}, executionMode answered ${String(after)}, expected exclusive`)
  },
)
