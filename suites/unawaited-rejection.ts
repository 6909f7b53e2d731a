/**
 * PRE-4 and PST-3 for a listener nobody awaited: an outer listener calls next() without awaiting
 * it and decides at once; the inner listener it started rejects later. The registry awaits that
 * listener (PRE-6), and its rejection ends the call in error all the same: a registry that took
 * the outcome before the stragglers settled publishes the outer listener's allow or accept.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

export interface LateRejectionCase {
  /** Scheduler points the inner listener waits at before it rejects. */
  pauses: number
  /** Whether it throws an Error, or rejects with a TypeError a runtime raised for it. */
  typeError: boolean
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`)

export function lateRejection(id: 'PRE-4' | 'PST-3') {
  const stage = id === 'PRE-4' ? 'pre-execute' : 'post-execute'
  return custom(
    id, `an inner ${stage} listener that rejects after the outer one decided without awaiting next() ends the call in error`,
    fc.record<LateRejectionCase>({ pauses: fc.integer({ min: 1, max: 3 }), typeError: fc.boolean() }),
    (c) => [
      'tool target, whose body returns { ok: true }',
      `${stage} #0 calls next() without awaiting it and ${id === 'PRE-4' ? 'allows' : 'accepts'} at once`,
      `${stage} #1 waits at a scheduler point ${times(c.pauses)}, then rejects with ${c.typeError ? 'a TypeError' : 'an Error'}`,
      'one call to target',
    ],
    async (ctx, c) => {
      const registry = await ctx.registry()
      let bodyRan = false
      registry.register(liveTool('target', { execute: async () => ((bodyRan = true), { ok: true }) }))
      let rejected = false
      const rejectLater = async (): Promise<never> => {
        for (let i = 0; i < c.pauses; i++) await ctx.scheduler.schedule(Promise.resolve())
        rejected = true
        throw c.typeError ? new TypeError('late') : new Error('late')
      }
      if (id === 'PRE-4') {
        registry.onPreExecute((_exec, next) => (void next().catch(() => undefined), Promise.resolve({ kind: 'allow' })))
        registry.onPreExecute(rejectLater)
      } else {
        registry.onPostExecute((_exec, _result, next) => (void next().catch(() => undefined), Promise.resolve({ kind: 'accept' })))
        registry.onPostExecute(rejectLater)
      }
      const result = await ctx.scheduler.waitFor(registry.execute(input('target')))
      // A call that settled before the inner listener did never awaited it: PRE-6's finding, not this clause's.
      if (!rejected) return
      if (id === 'PRE-4' && bodyRan) ctx.fail('the body ran although a pre-execute listener rejected')
      if (!result.isError) ctx.fail(`the outcome is a success although a ${stage} listener rejected`)
    },
  )
}
