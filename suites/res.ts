/** RES: tools/result, the authoritative result. */
import fc from 'fast-check'
import {
  ANY_SCHEMA, nowAndThen, observer, postListener, scenario, succeedingTool, withNestedCallLast, type PostSpec, type Scenario, type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { sameInputTwice } from './res-same-input.js'
import { observerCall } from './res-observer-call.js'
import { bothDirect, withDirect } from './with-direct.js'

const observers = fc.array(observer, { minLength: 1, maxLength: 3 })

const concludingTool = succeedingTool().map((t): ToolSpec => ({ ...t, body: { ...t.body, steps: [...t.body.steps, { kind: 'conclude' }] } }))
const blockingPost = fc.oneof(
  postListener,
  fc.constant<PostSpec>({ timing: 'sync', decision: { kind: 'returns', value: { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] } } }),
)

/**
 * In a quarter of RES-1's cases a global observer, registered first, disposes of itself when first
 * notified, another observer follows it, and the first call runs again last: the observers after it
 * are notified of that result all the same, and it of no later one. Calls stay one after another;
 * cases whose bodies dispatch nested calls (which notify observers too) are left as they are. Drawn last.
 */
function withSelfDisposing(s: Scenario): Scenario {
  const first = s.calls[0]
  if (!first || s.tools.some((t) => t.body.steps.some((step) => step.kind === 'dispatch')) || s.calls.some((c) => c.program)) return s
  return {
    ...s,
    observers: [{ throws: false, disposesSelf: true }, ...s.observers, { throws: false }],
    calls: [...s.calls, first],
  }
}

/**
 * In a quarter of RES-1's cases a tool of the case's own, called last, makes a nested call
 * (withNestedCallLast): each execute notifies the observers of its own result once, the nested one
 * too, and never of another execute's. Not beside an observer that disposes of itself. Drawn last.
 */
const withNestedCall = (s: Scenario): Scenario => (s.observers.some((o) => o.disposesSelf) ? s : withNestedCallLast(s))

/**
 * In a quarter of RES-4's cases the first observer is an async function, so what it throws is a
 * rejected promise, and a quiet observer follows the others: it is notified all the same. Drawn last.
 */
const withRejectingObserver = (s: Scenario): Scenario =>
  ({ ...s, observers: [...s.observers.map((o, i) => (i === 0 ? { ...o, async: true as const } : o)), { throws: false }] })

/**
 * In a third of RES-2's cases every tool returns a value frozen at its root only, an array inside
 * it still writable, its schema taking any value, and no hook but observers stands in the way: what
 * observers see is deep-frozen all the same (a registry that takes the frozen root for a frozen
 * value leaves the array writable). Drawn last.
 */
const FROZEN_ROOT: ValueDesc = { $: 'frozen', value: { items: [1, 2], meta: { page: 1 } } }
const returningFrozenRoot = (s: Scenario): Scenario => ({
  ...s,
  pre: [],
  guards: [],
  wrappers: [],
  post: [],
  tools: s.tools.map((t) => ({ ...t, body: { ...t.body, outcome: { kind: 'return', value: FROZEN_ROOT } }, outputSchema: ANY_SCHEMA })),
})

export default [
  withDirect(judged(
    'RES-1', 'observers are notified exactly once per execute, after finalization, with the same object execute resolves with',
    scenario({ observers, calls: { max: 2, unknownNames: true, agents: true } }).chain(nowAndThen(withSelfDisposing)).chain(nowAndThen(withNestedCall)),
  ), bothDirect(sameInputTwice, observerCall), { everyLast: 4 }),
  judged(
    'RES-2', 'the result observers see is deep-frozen and the execution frozen',
    // Calls to no visible tool too: observers get their execution, frozen all the same.
    scenario({ observers, calls: { max: 2, unknownNames: true } }).chain(nowAndThen(returningFrozenRoot, 3))
      // A nested call's observers get its execution frozen too (a field a registry adds to it, such as rootCallId, included).
      .chain(nowAndThen(withNestedCallLast, 3)),
  ),
  judged(
    'RES-3', 'a success has value and no error; a failure has error and no value; concludesTurn only on a success',
    fc.oneof(
      scenario({ calls: { max: 2, unknownNames: true } }),
      // A body that concludes, then a post-execute block: the failure must not carry the conclusion.
      scenario({ tools: fc.array(concludingTool, { minLength: 1, maxLength: 1 }), post: fc.array(blockingPost, { minLength: 1, maxLength: 2 }) }),
    ),
  ),
  judged(
    'RES-4', 'an observer that throws changes neither the outcome nor what other observers receive',
    scenario({ observers: fc.array(observer.map((o) => ({ ...o, throws: true })), { minLength: 1, maxLength: 3 }) })
      .chain(nowAndThen(withRejectingObserver)),
  ),
]
