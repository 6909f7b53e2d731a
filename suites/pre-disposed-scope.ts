/**
 * PRE-7 across registrations: one listener function registered twice, globally and for agent A,
 * is two registrations. Disposing one of them leaves the other in force: a global registration still
 * receives every call, an A registration still A's calls.
 */
import fc from 'fast-check'
import type { PreExecuteListener } from '../harness/contract/adapter.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

interface DisposedScopeCase {
  /** Which of the two registrations is disposed. */
  disposed: 'A' | 'global'
  /** Which agent calls afterwards (none: a call without an agent). */
  caller: 'A' | 'B' | 'none'
}

export const disposedScope = custom(
  'PRE-7', 'disposing one registration of a listener function leaves its other registration, global or agent A\'s, in force',
  fc.record({
    disposed: fc.constantFrom<DisposedScopeCase['disposed']>('A', 'global'),
    caller: fc.constantFrom<DisposedScopeCase['caller']>('A', 'B', 'none'),
  }),
  (c) => [
    'tool target; one pre-execute listener function, noting the calls it sees and delegating, registered globally and for agent A',
    `${c.disposed === 'A' ? 'agent A\'s' : 'the global'} registration is disposed`,
    `one call to target${c.caller === 'none' ? ' without an agent' : ` by agent ${c.caller}`}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('target'))
    let seen = 0
    const listener: PreExecuteListener = (_exec, next) => ((seen += 1), next())
    const global = registry.onPreExecute(listener)
    const forA = registry.onPreExecute(listener, { agent: registry.agent('A') })
    ;(c.disposed === 'A' ? forA : global)()
    await ctx.scheduler.waitFor(registry.execute(input('target', {}, c.caller === 'none' ? {} : { agent: registry.agent(c.caller) })))
    // Left in force: the global registration sees every call; A's sees A's calls only.
    const expected = c.disposed === 'A' ? 1 : c.caller === 'A' ? 1 : 0
    const left = c.disposed === 'A' ? 'global' : 'agent A'
    if (seen !== expected) ctx.fail(`the listener saw the call ${seen} time(s), expected ${expected} (its ${left} registration is in force)`)
  },
  'scopes',
)
