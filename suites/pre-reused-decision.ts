/**
 * PRE-2 and PRE-3 for a decision object a listener returns again: an app's listener may keep one
 * decision and change it between calls (a policy switched off, a table edited in place). Each call
 * reads the decision it is given: one allowed before, now a deny (PRE-2) or malformed (PRE-3), ends
 * the call before its body. A registry that memoizes a verdict per decision object keeps the allow.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

/** What the decision object becomes after the first call. */
const CHANGES = {
  'PRE-2': [{ kind: 'deny', reason: 'switched off' }],
  'PRE-3': [{ kind: 'deny' }, { kind: 'Allow' }, {}],
} as const satisfies Record<string, readonly Record<string, string>[]>

export interface ReusedDecisionCase {
  change: number
  /** The listener answers with a promise of the object. */
  async: boolean
  /** A listener registered before it delegates. */
  delegatedTo: boolean
}

const changes = (id: keyof typeof CHANGES) => CHANGES[id]
/** A decision as a reader writes it: `{ kind: 'deny' }`, `{}`. */
const told = (decision: Readonly<Record<string, string>>) => {
  const fields = Object.entries(decision).map(([key, value]) => `${key}: '${value}'`)
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`
}

export function reusedDecision(id: keyof typeof CHANGES) {
  return custom(
    id,
    `a decision object returned again, changed in place since the call it allowed, is read anew: now ${
      id === 'PRE-2' ? 'a deny' : 'malformed'}, it ends the call before its body`,
    fc.record<ReusedDecisionCase>({ change: fc.nat(changes(id).length - 1), async: fc.boolean(), delegatedTo: fc.boolean() }),
    (c) => [
      'tool target',
      `${c.delegatedTo ? 'a pre-execute listener that delegates, then ' : ''}a pre-execute listener answering ${
        c.async ? 'a promise of ' : ''}one decision object it keeps, { kind: 'allow' } at first`,
      `one call to target; the object then changed in place to ${told(changes(id)[c.change]!)}; the same call again`,
    ],
    async (ctx, c) => {
      const registry = await ctx.registry()
      let bodies = 0
      registry.register(liveTool('target', { execute: async () => (bodies++, { ok: true }) }))
      const decision: Record<string, string> = { kind: 'allow' }
      if (c.delegatedTo) registry.onPreExecute((_exec, next) => next())
      registry.onPreExecute((() => (c.async ? Promise.resolve(decision) : decision)) as never)
      const first = await registry.execute(input('target', {}, { callId: 'x-target-1' }))
      if (first.isError || bodies !== 1) return
      for (const key of Object.keys(decision)) delete decision[key]
      Object.assign(decision, changes(id)[c.change])
      const second = await registry.execute(input('target', {}, { callId: 'x-target-2' }))
      if (bodies > 1) ctx.fail(`the body ran again once the decision object was changed to ${told(decision)}`)
      else if (!second.isError) ctx.fail(`the call ended as a success once the decision object was changed to ${told(decision)}`)
    },
  )
}
