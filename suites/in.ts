/** IN: materializing the call. */
import fc from 'fast-check'
import { wrapper } from '../harness/arbitraries/hooks.js'
import { preListener, preDecision } from '../harness/arbitraries/hooks.js'
import { defaults, quiet, scenario } from '../harness/arbitraries/scenario.js'
import { poisoned } from '../harness/arbitraries/values.js'
import { judged } from '../harness/runner/scenario-property.js'
import type { CallSpec } from '../harness/scenario/types.js'

const tampering = fc.array(preListener(preDecision({ malformed: 0, failing: 0 })).map((p) => ({ ...p, tamper: true })), { minLength: 1, maxLength: 3 })

export default [
  judged('IN-1', 'every stage and the body see one frozen snapshot of the arguments, and no stage can change what runs', scenario({ ...quiet, pre: tampering, wrappers: fc.array(wrapper, { maxLength: 2 }), calls: { max: 2 } })),

  judged('IN-2', 'arguments that are not lossless JSON end the call before any listener, approval, guard, wrapper or body runs', scenario({
    pre: defaults.pre,
    guards: defaults.guards,
    wrappers: defaults.wrappers,
    calls: { args: poisoned, max: 2 },
  })),

  judged('IN-3', 'each execution gets a fresh token, and every stage of one call sees the same token', scenario({ calls: { max: 3, agents: true } })),

  judged('IN-4', 'execute never rejects for a well-typed input; malformed inputs and unknown tools are error outcomes', scenario({ calls: { max: 2, unknownNames: true } }).chain((s) =>
    fc.constantFrom<CallSpec['malformed'] | undefined>(undefined, 'not-an-object', 'no-signal', 'callId-not-a-string').map((malformed) =>
      malformed ? { ...s, calls: [{ tool: s.calls[0]!.tool, args: {}, malformed }, ...s.calls] } : s,
    ),
  )),
]
