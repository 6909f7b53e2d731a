/**
 * RES-1 with one input object handed to `execute` twice at once: "Observers are notified exactly
 * once per `execute` … with the same object `execute` resolves with". Two executes are two calls,
 * whatever object they were handed: a registry that joins the second to the first while it is in
 * flight notifies once, or resolves the second with a result no observer saw.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolExecutionResult } from '../harness/contract/spec.js'
import { sleep } from './real-time.js'

export interface SameInputCase {
  /** What the body does: return a value or throw. */
  fails: boolean
  /** Whether the body waits a moment first, so the first call is still in flight when the second comes. */
  waits: boolean
  /** Whether the calls carry agent A. */
  agent: boolean
}

const sameInputCases: fc.Arbitrary<SameInputCase> = fc.record({ fails: fc.boolean(), waits: fc.boolean(), agent: fc.boolean() })

export const sameInputTwice = custom(
  'RES-1',
  'two executes handed one input object at once are two calls: observers are notified of each, with what it resolves with',
  sameInputCases,
  (c) => [
    `tool probe: its body ${c.waits ? 'waits a moment, then ' : ''}${c.fails ? 'throws' : 'returns { ok: true }'}`,
    `one input object for probe${c.agent ? ', for agent A' : ''}, handed to execute twice at once`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('probe', {
      execute: async () => {
        if (c.waits) await sleep(1)
        if (c.fails) throw new Error('probe fails')
        return { ok: true } as JsonValue
      },
    }))
    const notified: unknown[] = []
    registry.onResult((_exec, result) => void notified.push(result))
    const shared = input('probe', {}, c.agent ? { agent: registry.agent('A') } : {})
    const results: ToolExecutionResult[] = await Promise.all([registry.execute(shared), registry.execute(shared)])
    if (notified.length !== 2) return ctx.fail(`observers were notified ${notified.length} times for two executes of one input object`)
    const count = (list: unknown[], item: unknown) => list.filter((x) => x === item).length
    if (results.some((r) => count(notified, r) !== count(results, r))) {
      ctx.fail('an execute resolved with an object observers were not notified of as often (two executes of one input object)')
    }
  },
)
