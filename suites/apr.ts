/** APR: approval (ask). */
import fc from 'fast-check'
import {
  approval,
  approvalOutcome,
  boxedGrant,
  guard,
  postListener,
  preListener,
  quiet,
  scenario,
  timing,
  type ApprovalSpec,
  type DecisionSpec,
  type PreSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'

const ask = fc.constantFrom<ValueDesc>({ kind: 'ask' }, { kind: 'ask', reason: 'needs a human' })
const asking: fc.Arbitrary<PreSpec[]> = fc
  .tuple(fc.array(preListener(fc.constant<DecisionSpec>({ kind: 'delegate' })), { maxLength: 1 }), ask, timing)
  .map(([before, value, t]) => [...before, { timing: t, decision: { kind: 'returns', value } as DecisionSpec }])

const refusing: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: approvalOutcome }) },
  { weight: 3, arbitrary: fc.constantFrom<ApprovalSpec>({ kind: 'throws' }, { kind: 'rejects' }, { kind: 'never' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: boxedGrant }) },
)

export default [
  judged(
    'APR-1', 'an ask is forwarded to the approval service exactly once, with callId, tool name, reason and signal, never the arguments',
    scenario({ ...quiet, pre: asking, perTool: ask, approval: approval, calls: { max: 2, agents: true } }),
  ),
  judged(
    'APR-2',
    'only the exact outcome allowed-once lets the call proceed; any other value, a throw, a rejection or an abort while pending means the body never runs',
    scenario({
      ...quiet,
      pre: asking,
      perTool: ask,
      approval: refusing,
      post: fc.array(postListener.map(({ scope: _scope, ...p }) => p), { minLength: 1, maxLength: 1 }),
      calls: { abortScheduled: 20 },
    }),
  ),
  judged(
    'APR-3', 'a granted approval never bypasses the guards',
    scenario({
      ...quiet,
      pre: asking,
      perTool: ask,
      approval: fc.constant<ApprovalSpec>({ kind: 'returns', timing: 'sync', value: 'allowed-once' }),
      guards: fc.array(guard, { minLength: 1, maxLength: 2 }),
    }),
  ),
]
