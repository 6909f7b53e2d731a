/**
 * APR: approval (ask). Most calls carry an agent: a registry may deny an agent-less ask without
 * asking (APR-1), and on that branch only a call with an agent reaches approval and the guards.
 */
import fc from 'fast-check'
import {
  approval,
  approvalOutcome,
  boxedGrant,
  argumentsWithProtoKey,
  defaults,
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

const ask = fc.constantFrom<ValueDesc>({ kind: 'ask' }, { kind: 'ask', reason: 'needs a human' }, { kind: 'ask', reason: '' })
const asking: fc.Arbitrary<PreSpec[]> = fc
  .tuple(fc.array(preListener(fc.constant<DecisionSpec>({ kind: 'delegate' })), { maxLength: 1 }), ask, timing)
  .map(([before, value, t]) => [...before, { timing: t, decision: { kind: 'returns', value } as DecisionSpec }])
/** The same, without hostile writes. */
const askingPlain = asking.map((pre) => pre.map(({ tamper: _tamper, attack: _attack, ...p }) => p))

const otherYes = fc.oneof(
  { weight: 1, arbitrary: fc.constant<ValueDesc>(true) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>('allowed', 'allowed-always', 'approved', 'yes', 1, { approved: true }) },
)
const refusing: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: approvalOutcome }) },
  { weight: 3, arbitrary: fc.constantFrom<ApprovalSpec>({ kind: 'throws' }, { kind: 'rejects' }, { kind: 'never' }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: boxedGrant }) },
  // The yes of other approval APIs (true, 'allowed', 1…): a registry that reads the answer loosely takes it for a grant.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: otherYes }) },
)

export default [
  judged(
    'APR-1', 'an ask is forwarded to the approval service exactly once, with callId, tool name, reason and signal, never the arguments',
    scenario({ ...quiet, pre: asking, perTool: ask, approval: approval, calls: { max: 2, agents: true, args: argumentsWithProtoKey } }),
  ),
  judged(
    'APR-2',
    'only the exact outcome allowed-once lets the call proceed; any other value, a throw, a rejection or an abort while pending means the body never runs',
    scenario({
      ...quiet,
      // No hostile writes: one that took effect (a registry that does not freeze) voids the case's other verdicts, APR-2's too.
      tools: defaults.tools.map((tools) => tools.map(({ attack: _attack, ...t }) => t)),
      pre: askingPlain,
      perTool: ask,
      approval: refusing,
      post: fc.array(postListener.map(({ scope: _scope, attack: _attack, ...p }) => p), { minLength: 1, maxLength: 1 }),
      calls: { abortScheduled: 20, agents: true },
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
      calls: { agents: true },
    }),
  ),
]
