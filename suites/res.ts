/** RES: tools/result, the authoritative result. */
import fc from 'fast-check'
import { observer, postListener, scenario, succeedingTool, type PostSpec, type ToolSpec } from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'

const observers = fc.array(observer, { minLength: 1, maxLength: 3 })

const concludingTool = succeedingTool().map((t): ToolSpec => ({ ...t, body: { ...t.body, steps: [...t.body.steps, { kind: 'conclude' }] } }))
const blockingPost = fc.oneof(
  postListener,
  fc.constant<PostSpec>({ timing: 'sync', decision: { kind: 'returns', value: { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] } } }),
)

export default [
  judged(
    'RES-1', 'observers are notified exactly once per execute, after finalization, with the same object execute resolves with',
    scenario({ observers, calls: { max: 2, unknownNames: true, agents: true } }),
  ),
  judged(
    'RES-2', 'the result observers see is deep-frozen and the execution frozen',
    // Calls to no visible tool too: observers get their execution, frozen all the same.
    scenario({ observers, calls: { max: 2, unknownNames: true } }),
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
    scenario({ observers: fc.array(observer.map((o) => ({ ...o, throws: true })), { minLength: 1, maxLength: 3 }) }),
  ),
]
