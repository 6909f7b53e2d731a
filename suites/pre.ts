/** PRE: tools/pre-execute, a tri-state waterfall. */
import fc from 'fast-check'
import {
  firstDisposingSelf,
  malformedPre,
  nowAndThen,
  nowAndThenWith,
  postListener,
  preDecision,
  preListener,
  quiet,
  scenario,
  tool,
  toolName,
  wellFormedPre,
  withNestedCallLast,
  wrapper,
  type AgentName,
  type DecisionSpec,
  type PreSpec,
  type Scenario,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { preMalformedOverridden, preThrowOverridden, preUnawaitedNext } from './overriding.js'
import { alongside, bothDirect, withDirect } from './with-direct.js'
import { fallbackChanged } from './pre-fallback-changed.js'
import { reusedDecision } from './pre-reused-decision.js'
import { lateRejection } from './unawaited-rejection.js'
import { registeredAgain } from './pre-registered-again.js'
import { disposedScope } from './pre-disposed-scope.js'

/**
 * In a quarter of PRE-7's cases the first call is made again by a lookalike of agent A (its key's
 * fields, another object): agents are compared by identity, so A's listeners never see it. Drawn
 * last, so the rest of a case is what it was before.
 */
function withLookalikeCall(s: Scenario): Scenario {
  const first = s.calls[0]
  return first ? { ...s, calls: [...s.calls, { tool: first.tool, args: first.args, agent: 'A', lookalikeAgent: true }] } : s
}

/**
 * In half of PRE-7's cases a program of its own, called last for agent A or for none, makes a
 * nested call for another caller: A's listeners receive it only if the nested call is A's, whoever
 * its parent's caller is. The case's listeners stay. Drawn last.
 */
const nestedCallers = fc.constantFrom<[AgentName | undefined, AgentName | 'none']>([undefined, 'A'], ['A', 'none'], ['A', 'none'], ['A', 'B'])
function withNestedForAnother(s: Scenario, [parent, nested]: [AgentName | undefined, AgentName | 'none']): Scenario {
  const withNested = withNestedCallLast(s, { dispatch: { agent: nested }, keepHooks: true })
  if (withNested === s) return s
  const calls = withNested.calls.map((c, i) => (i === withNested.calls.length - 1 && parent ? { ...c, agent: parent } : c))
  return { ...withNested, calls }
}

/** The listener registered globally. */
const global = ({ scope: _scope, ...listener }: PreSpec): PreSpec => listener

const returns = (value: fc.Arbitrary<ValueDesc>) => value.map((v) => ({ kind: 'returns', value: v }) as DecisionSpec)
const listeners = (decision: fc.Arbitrary<DecisionSpec>, min = 1) => fc.array(preListener(decision), { minLength: min, maxLength: 3 })
const deny = fc.string({ maxLength: 4 }).map((reason): ValueDesc => ({ kind: 'deny', reason }))
const ask = fc.constantFrom<ValueDesc>({ kind: 'ask' }, { kind: 'ask', reason: 'why' })
/** Delegating listeners around one that decides: the decision can sit at any depth. */
const around = (decisive: fc.Arbitrary<DecisionSpec>) =>
  fc.tuple(
    fc.array(preListener(fc.constant<DecisionSpec>({ kind: 'delegate' })), { maxLength: 2 }),
    preListener(decisive),
    fc.array(preListener(), { maxLength: 1 }),
  ).map(([before, d, after]): PreSpec[] => [...before, d, ...after])

/**
 * Tools named after Object.prototype members half the time (constructor most): a per-tool table
 * looked up by name reaches Object.prototype for them, and an ask there may be lost.
 */
const prototypeNamedOften = fc.uniqueArray(
  tool({ name: fc.oneof(toolName, fc.constantFrom('constructor', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__')) }),
  { minLength: 1, maxLength: 2, selector: (t) => t.name },
)

export default [
  alongside(withDirect(judged(
    'PRE-1', 'listeners run in registration order, each deciding or awaiting next(); when all delegate the decision is allow',
    scenario({ ...quiet, pre: listeners(preDecision({ malformed: 0, failing: 0 }), 0) })
      .chain(nowAndThen(firstDisposingSelf('pre', { decision: { kind: 'delegate' } }), 2)),
  ), registeredAgain, { scenario: 2, direct: 1 }), fallbackChanged, { then: ['no listener', 'a listener that delegates'] }),
  withDirect(judged(
    'PRE-2', 'deny ends the call with an error outcome; no guard, wrapper or body runs',
    scenario({ pre: around(returns(deny)), perTool: deny }),
  ), reusedDecision('PRE-2'), { everyLast: 5 }),
  withDirect(judged(
    'PRE-3',
    'a malformed decision — unknown kind, deny without a string reason, undefined, a non-object — is a denial, ' +
      'never an allow, even when an outer listener allows after next()',
    // Per-tool decisions three times in four: an app's approval table is where a falsy answer hides.
    scenario({ pre: around(returns(malformedPre)), perTool: malformedPre, perToolShare: 75, calls: { max: 2 } }),
  ), bothDirect(preMalformedOverridden, reusedDecision('PRE-3'))),
  withDirect(judged(
    'PRE-4', 'a listener that throws or rejects ends the call with an error outcome and the body never runs, even when an outer listener catches it and allows',
    // A listener may throw before it calls next(), or once the listeners inside it have answered.
    scenario({ pre: around(fc.constantFrom<DecisionSpec>({ kind: 'throws' }, { kind: 'rejects' }, { kind: 'throws-after-next' })) }),
  ), bothDirect(preThrowOverridden, lateRejection('PRE-4')), { scenario: 2, direct: 1 }),
  judged(
    'PRE-5', 'ask with no approval capability configured is a denial',
    scenario({ tools: prototypeNamedOften, pre: around(returns(ask)), perTool: ask, approval: fc.constant(undefined) }),
  ),
  withDirect(judged(
    'PRE-6', 'a pending listener is awaited — even one an outer listener stopped waiting for — and if the caller aborted meanwhile the body never runs',
    scenario({
      ...quiet,
      pre: fc.array(
        preListener(fc.oneof(fc.constant<DecisionSpec>({ kind: 'delegate' }), returns(wellFormedPre))).map((p) => ({ ...p, timing: 'await' as const })),
        { minLength: 1, maxLength: 3 },
      ),
      calls: { abortScheduled: 80 },
    }),
  ), preUnawaitedNext),
  withDirect(judged(
    'PRE-7', 'a listener registered for agent A receives only calls whose agent is A; global listeners receive all calls',
    scenario({
      ...quiet,
      pre: fc.array(
        // Mostly scoped (A's, then B's), now and then global: a global listener receives A's calls too.
        fc.tuple(preListener(preDecision({ malformed: 0, failing: 0 })), fc.nat(3))
          .map(([p, k]) => (k === 0 ? global(p) : { ...p, scope: p.scope ?? 'A' as const })),
        { minLength: 1, maxLength: 3 },
      ),
      post: fc.array(
        fc.record({
          scope: fc.constantFrom<'A' | 'B'>('A', 'B'),
          timing: fc.constant('sync' as const),
          decision: fc.constant<DecisionSpec>({ kind: 'delegate' }),
        }),
        { maxLength: 2 },
      ),
      calls: { max: 3, agents: true },
    }).chain(nowAndThen(withLookalikeCall)).chain(nowAndThenWith(nestedCallers, withNestedForAnother, 2)),
    'scopes',
  ), disposedScope),
  judged(
    'PRE-8', 'next() is idempotent: calling it twice gets one decision and runs no later listener, approval or guard twice',
    scenario({
      // In each waterfall, listeners that call next() twice, sometimes followed by one that decides.
      pre: fc.tuple(
        fc.array(
          preListener(fc.constantFrom<DecisionSpec>({ kind: 'delegate-twice' }, { kind: 'delegate-again-later' }, { kind: 'delegate' })),
          { minLength: 1, maxLength: 2 },
        ),
        fc.option(preListener(preDecision({ malformed: 0, failing: 0 }).filter((d) => d.kind === 'returns')), { nil: undefined }),
      ).map(([twice, decider]) => (decider ? [...twice, decider] : twice)),
      wrappers: fc.tuple(
        fc.array(
          fc.record({ timing: fc.constantFrom('sync' as const, 'await' as const), action: fc.constant({ kind: 'next-twice' as const }) }),
          { minLength: 1, maxLength: 2 },
        ),
        fc.option(wrapper.filter((w) => w.action.kind === 'made-up'), { nil: undefined }),
      ).map(([twice, decider]) => (decider ? [...twice, decider] : twice)),
      post: fc.tuple(
        fc.array(
          fc.record({ timing: fc.constant('sync' as const), decision: fc.constant<DecisionSpec>({ kind: 'delegate-twice' }) }),
          { minLength: 1, maxLength: 2 },
        ),
        fc.option(postListener.filter((p) => p.decision.kind === 'returns'), { nil: undefined }),
      ).map(([twice, decider]) => (decider ? [...twice, decider] : twice)),
    }),
  ),
]
