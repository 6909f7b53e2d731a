/** EXE: tools/execute, the around-wrapper. */
import fc from 'fast-check'
import { ANY_SCHEMA } from '../harness/arbitraries/outputs.js'
import { postListener, wrapper } from '../harness/arbitraries/hooks.js'
import { defaults, quiet, scenario } from '../harness/arbitraries/scenario.js'
import { succeedingTool, tool } from '../harness/arbitraries/tools.js'
import { judged } from '../harness/runner/scenario-property.js'
import type { ToolSpec, WrapperSpec } from '../harness/scenario/types.js'

const wrappers = (min: number, filter: (w: WrapperSpec) => boolean = () => true) => fc.array(wrapper.filter(filter), { minLength: min, maxLength: 3 })
const waitingTool = tool().map((t): ToolSpec => ({ ...t, body: { steps: [{ kind: 'await' }], outcome: { kind: 'until-aborted', value: 1 } }, outputSchema: ANY_SCHEMA, render: { kind: 'json-text' } }))

export default [
  judged('EXE-1', 'wrappers nest in registration order, the innermost next() runs the body, and a wrapper that returns without next() means no body', scenario({ ...quiet, wrappers: wrappers(1) })),
  judged('EXE-2', 'a replacement signal cannot hide cancellation: when the caller\'s signal aborts, the body\'s signal aborts too', scenario({
    ...quiet,
    tools: fc.array(waitingTool, { minLength: 1, maxLength: 1 }),
    wrappers: fc.array(fc.record({ timing: fc.constantFrom('sync' as const, 'await' as const), action: fc.constant({ kind: 'replace-signal' as const }) }), { minLength: 1, maxLength: 2 }),
    calls: { abortScheduled: 100 },
  })),
  judged('EXE-3', 'a wrapper that throws or rejects ends the call with an error outcome', scenario({ ...quiet, wrappers: wrappers(1).filter((ws) => ws.some((w) => w.action.kind === 'throws' || w.action.kind === 'rejects')), post: fc.array(postListener, { maxLength: 1 }) })),
  judged('EXE-4', 'a success a wrapper makes up is validated against output.schema and rendered like a body\'s value', scenario({
    ...quiet,
    // Tools with no finalizer or meta of their own, so nothing after the wrapper masks its made-up value.
    tools: fc.oneof(defaults.tools, fc.uniqueArray(succeedingTool(), { minLength: 1, maxLength: 2, selector: (t) => t.name })),
    wrappers: wrappers(1).filter((ws) => ws.some((w) => w.action.kind === 'made-up')),
  })),
]
