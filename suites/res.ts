/** RES: tools/result, the authoritative result. */
import fc from 'fast-check'
import { observer } from '../harness/arbitraries/hooks.js'
import { scenario } from '../harness/arbitraries/scenario.js'
import { judged } from '../harness/runner/scenario-property.js'

const observers = fc.array(observer, { minLength: 1, maxLength: 3 })

export default [
  judged('RES-1', 'observers are notified exactly once per execute, after finalization, with the same object execute resolves with', scenario({ observers, calls: { max: 2, unknownNames: true, agents: true } })),
  judged('RES-2', 'the result observers see is deep-frozen and the execution frozen', scenario({ observers, calls: { max: 2 } })),
  judged('RES-3', 'a success has value and no error; a failure has error and no value; concludesTurn only on a success', scenario({ calls: { max: 2, unknownNames: true } })),
  judged('RES-4', 'an observer that throws changes neither the outcome nor what other observers receive', scenario({ observers: fc.array(observer.map((o) => ({ ...o, throws: true })), { minLength: 1, maxLength: 3 }) })),
]
