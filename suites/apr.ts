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
  nearMiss,
  nearMisses,
  nowAndThen,
  nowAndThenWith,
  postListener,
  preListener,
  quiet,
  scenario,
  timing,
  type ApprovalSpec,
  type BodyStep,
  type CallSpec,
  type DecisionSpec,
  type PreSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { outerAsk } from './apr-outer-ask.js'
import { lookalikeAgentAsk } from './apr-lookalike-agent.js'
import { bothDirect, withDirect } from './with-direct.js'

const ask = fc.constantFrom<ValueDesc>({ kind: 'ask' }, { kind: 'ask', reason: 'needs a human' }, { kind: 'ask', reason: '' })
/** Reasons a tidy prompt would change: each is forwarded as written, newlines, runs of spaces and blanks at either end. */
const untidyReason = fc.constantFrom(' needs a human ', 'Delete /tmp/x?\n  This cannot be undone. ', ' two  spaces', 'tab\there\n')
const isAsk = (value: ValueDesc) => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'ask'
/** In a third of APR-1's cases every ask a listener answers gives an untidy reason. Drawn last. */
const withUntidyReasons = (s: Scenario, reason: string): Scenario => ({
  ...s,
  pre: s.pre.map((p) => (p.decision.kind === 'returns' && isAsk(p.decision.value)
    ? { ...p, decision: { kind: 'returns', value: { kind: 'ask', reason } } }
    : p)),
})
const asking: fc.Arbitrary<PreSpec[]> = fc
  .tuple(fc.array(preListener(fc.constant<DecisionSpec>({ kind: 'delegate' })), { maxLength: 1 }), ask, timing)
  .map(([before, value, t]) => [...before, { timing: t, decision: { kind: 'returns', value } as DecisionSpec }])
/** The same, without hostile writes. */
const askingPlain = asking.map((pre) => pre.map(({ tamper: _tamper, attack: _attack, ...p }) => p))

const otherYes = fc.oneof(
  { weight: 1, arbitrary: fc.constant<ValueDesc>(true) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>('allowed', 'allowed-always', 'approved', 'yes', 1, { approved: true }) },
)
const nearlyTheGrant = fc.oneof(nearMiss('allowed-once'), fc.constant<ValueDesc>('allowed-session'))
const refusing: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: approvalOutcome }) },
  { weight: 3, arbitrary: fc.constantFrom<ApprovalSpec>({ kind: 'throws' }, { kind: 'rejects' }, { kind: 'never' }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: boxedGrant }) },
  // The yes of other approval APIs (true, 'allowed', 1…): a registry that reads the answer loosely takes it for a grant.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: otherYes }) },
  // Nearly the grant: a wider grant's name, a prefix of it, another case, a space. Only 'allowed-once' itself grants.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returns' as const), timing, value: nearlyTheGrant }) },
)

/**
 * The case with a service that grants every ask, and tools that make no hostile writes: granted
 * bodies run, and one whose write took effect would void the verdicts after it.
 */
const granting = (s: Scenario): Scenario => ({
  ...s,
  config: { ...s.config, approval: { kind: 'returns', timing: 'sync', value: 'allowed-once' } },
  tools: s.tools.map(({ attack: _attack, ...t }) => t),
})

/**
 * In a quarter of the cases every ask is granted, and the first call is made twice more, one after
 * the other, by one agent: a grant is for one call, so each repeated ask is forwarded too. Drawn
 * last, so the rest of a case is what it was before.
 */
function askedAgain(s: Scenario): Scenario {
  const first = s.calls[0]
  if (!first) return s
  const agent = s.tools.find((t) => t.name === first.tool)?.scope ?? first.agent ?? 'A'
  const again: CallSpec = { tool: first.tool, args: first.args, agent }
  const { concurrent: _concurrent, ...sequential } = granting(s)
  return { ...sequential, calls: [...s.calls, again, { ...again }] }
}

/**
 * In half of the cases every ask is granted, and agent A calls a tool of its own whose body
 * first makes a nested call (`parent`: its token) to a global tool: the nested ask is forwarded
 * with the nested call's own callId, not its parent's. Drawn last.
 */
function askedNested(s: Scenario): Scenario {
  const granted = granting(s)
  const leaf = granted.tools.find((t) => t.scope === undefined)
  if (!leaf || s.tools.some((t) => t.name === 'outer')) return s
  const dispatch: BodyStep = { kind: 'dispatch', tool: leaf.name, args: { q: 'nested' } }
  const outer: ToolSpec = { ...leaf, name: 'outer', body: { ...leaf.body, steps: [dispatch, ...leaf.body.steps] } }
  return { ...granted, tools: [...granted.tools, outer], calls: [...s.calls, { tool: 'outer', args: {}, agent: 'A' }] }
}

/**
 * In a quarter of APR-2's cases the service answers each request in turn with another near grant
 * (every one of them, once), and the first call is made again, for agent A, once for each: every
 * call's body stays unrun, whichever near grant a lenient reader would take. Drawn last.
 */
const NEAR_GRANTS: ValueDesc[] = [...nearMisses('allowed-once'), 'allowed-session']
function nearGrantsInTurn(s: Scenario): Scenario {
  const first = s.calls[0]
  if (!first) return s
  const [value, ...later] = NEAR_GRANTS
  const again = NEAR_GRANTS.map(() => ({ tool: first.tool, args: first.args, agent: 'A' as const }))
  return { ...s, config: { ...s.config, approval: { kind: 'returns', timing: 'sync', value: value!, later } }, calls: [...s.calls, ...again] }
}

export default [
  withDirect(judged(
    'APR-1', 'an ask is forwarded to the approval service exactly once, with callId, tool name, reason and signal, never the arguments',
    scenario({ ...quiet, pre: asking, perTool: ask, approval: approval, calls: { max: 2, agents: true, args: argumentsWithProtoKey } })
      .chain(nowAndThen(askedAgain))
      .chain(nowAndThen(askedNested, 2))
      .chain(nowAndThenWith(untidyReason, withUntidyReasons, 3)),
  ), bothDirect(outerAsk, lookalikeAgentAsk), { scenario: 5, direct: 1 }),
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
    }).chain(nowAndThen(nearGrantsInTurn)),
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
