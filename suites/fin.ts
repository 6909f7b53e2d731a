/** FIN: finalizeContent, the tool's last mile. */
import fc from 'fast-check'
import { finalizer, oddFinalizer, succeedingTool, tool } from '../harness/arbitraries/tools.js'
import { guard, postListener, preDecision, preListener, wrapper } from '../harness/arbitraries/hooks.js'
import { defaults, quiet, scenario } from '../harness/arbitraries/scenario.js'
import { codeOf, custom, input } from '../harness/runner/custom-property.js'
import { judged } from '../harness/runner/scenario-property.js'
import { liveTool } from '../harness/runner/sample-tools.js'
import type { FinalizeSpec, ToolSpec } from '../harness/scenario/types.js'

const finalizing = (f: fc.Arbitrary<FinalizeSpec>, scoped = true) =>
  fc.uniqueArray(fc.tuple(tool({ scoped }), f).map(([t, fin]): ToolSpec => ({ ...t, finalize: fin })), { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` })

/** Every tool defers a well-formed context first, so what the finalizer does to contexts shows. */
const deferringFirst = (t: ToolSpec, i: number): ToolSpec =>
  ({ ...t, body: { ...t.body, steps: [{ kind: 'defer', context: { role: 'user', content: [{ type: 'text', text: `context ${i}` }] } }, ...t.body.steps] } })

export default [
  custom('FIN-1', 'the finalizer is snapshotted at entry: re-registering or disposing the tool mid-call does not change which callback runs', fc.record({
    when: fc.constantFrom('pre-execute', 'body'),
    then: fc.constantFrom('dispose', 'replace'),
  }), async (ctx, c) => {
    const registry = await ctx.registry()
    const ran: string[] = []
    let dispose: () => void = () => undefined
    const swap = () => {
      dispose()
      if (c.then === 'replace') registry.register(liveTool('swapped', { finalizeContent: () => void ran.push('second') }))
    }
    dispose = registry.register(liveTool('swapped', {
      finalizeContent: () => void ran.push('first'),
      execute: async () => {
        if (c.when === 'body') swap()
        return { ok: true }
      },
    }))
    if (c.when === 'pre-execute') {
      registry.onPreExecute(async (_exec, next) => {
        swap()
        return next()
      })
    }
    const result = await registry.execute(input('swapped'))
    if (JSON.stringify(ran) !== '["first"]') ctx.fail(`finalizers that ran: ${JSON.stringify(ran)}, expected the one registered at entry, once`)
    if (result.isError && codeOf(registry, result) === 'UNKNOWN_TOOL') ctx.fail('the call in flight became UNKNOWN_TOOL')
  }),
  judged('FIN-2', 'finalizeContent is invoked exactly once for every outcome of a call whose tool was visible at entry', scenario({
    tools: finalizing(finalizer),
    pre: fc.array(preListener(preDecision({ malformed: 2, failing: 4 })), { minLength: 1, maxLength: 2 }),
    approval: defaults.approval,
    calls: { max: 2, abortAtEntry: 15, abortScheduled: 15, agents: true, unknownNames: true },
  })),
  judged('FIN-3', 'the finalizer gets the frozen result; undefined keeps the content, blocks replace only content, and contexts stay even when it throws', scenario({
    tools: finalizing(fc.oneof(fc.constant<FinalizeSpec>({ kind: 'keep' }), finalizer, fc.constant<FinalizeSpec>({ kind: 'throws' }), oddFinalizer), false).map((tools) => tools.map(deferringFirst)),
    pre: fc.array(preListener(), { maxLength: 1 }),
    guards: fc.array(guard, { maxLength: 1 }),
    wrappers: fc.array(wrapper, { maxLength: 1 }),
    post: fc.array(postListener, { maxLength: 1 }),
    calls: { max: 2 },
  })),
  judged('FIN-4', 'a finalizer that throws is not called again, execute still resolves, and the outcome is an error', scenario({
    ...quiet,
    tools: fc.array(fc.oneof(succeedingTool(), tool()).map((t): ToolSpec => ({ ...t, finalize: { kind: 'throws' } })), { minLength: 1, maxLength: 1 }),
    calls: { max: 2 },
  })),
]
