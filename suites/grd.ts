/** GRD: monotonic guards. */
import fc from 'fast-check'
import {
  builtInThrown, defaults, firstDisposingSelf, guard, nowAndThen, nowAndThenWith, preDecision, preListener, quiet, runScenario, scenario, scenarioStory,
  type GuardSpec, type Scenario, type Trace, type ValueDesc, type WrapperSpec, withBuiltInThrows,
} from '../harness/property/vocabulary.js'
import { custom } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { disposedGuardAgain } from './grd-disposed.js'
import { deniedWhenRegisteredLater, deniedWhenRegisteredTwice, laterDenialStory, twiceRegisteredStory } from './grd-registered-later.js'
import { alongside, bothDirect, withDirect } from './with-direct.js'
import { grantedThenThrow } from './grd-granted-throw.js'
import { programGuarded } from './grd-program-guarded.js'
import { emptyAnswer } from './grd-empty-answer.js'

/** A guard returning a falsy value other than undefined, or `true` (no string either): it denies all the same (GRD-1). */
const oddVerdictGuard: fc.Arbitrary<GuardSpec> = fc
  .oneof({ weight: 2, arbitrary: fc.constantFrom<ValueDesc>(null, false, 0, '') }, fc.constant<ValueDesc>(true))
  .map((value) => ({ verdict: { kind: 'returns', value } }))
/** An async guard that found nothing: its Promise is a return other than undefined, so a denial. */
const promiseOfNothing: GuardSpec = { verdict: { kind: 'returns', value: { $: 'promise', value: { $: 'undefined' } } } }

/** A case of GRD-2: a scenario run twice, the second time with a denial added; now and then a later registration, or one guard registered twice. */
interface AddedDenialCase { base: Scenario; addGuard: boolean; position: number; later?: true; twice?: true }

/**
 * In a quarter of GRD-1's cases the outermost listener asks, the approval service grants it, every
 * call is agent A's and every guard passes: the final allow is the approval's, and what is checked
 * is that the guards run after it. Drawn last.
 */
const askGranted = (s: Scenario): Scenario => ({
  ...s,
  guards: s.guards.map((g) => ({ ...g, verdict: { kind: 'pass' } })),
  config: { ...s.config, approval: { kind: 'returns', timing: 'sync', value: 'allowed-once' } },
  pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'ask', reason: 'a human decides' } } }, ...s.pre],
  calls: s.calls.map((c) => ({ ...c, agent: c.agent ?? 'A' })),
})

/**
 * In a quarter of GRD-1's cases the outermost listener allows outright, never calling next(): the
 * waterfall's final allow is its, and the guards still run after it. Drawn before askGranted, which
 * then stays outermost.
 */
const allowedOutright = (s: Scenario): Scenario =>
  ({ ...s, pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'allow' } } }, ...s.pre] })


const bodiesRun = (trace: Trace) => new Set(trace.events.flatMap((e) => (e.ev === 'enter' && e.stage === 'body' ? [e.call] : [])))

/**
 * In half of GRD-3's cases, what throws throws a TypeError or a RangeError (an Error like any other),
 * and no pre-execute listener stands before the guards: the call reaches them. Drawn last.
 */
const runtimeErrorAtTheGuards = (s: Scenario, thrown: ValueDesc): Scenario => ({ ...withBuiltInThrows(s, thrown), pre: [] })

export default [
  alongside(withDirect(judged(
    'GRD-1', 'guards run after the final allow and before dispatch; any return other than undefined denies',
    // Listeners that decide well (a denial now and then): most calls reach the guards, odd verdicts among them.
    fc.oneof(
      {
        weight: 4,
        arbitrary: scenario({
          pre: fc.array(preListener(preDecision({ malformed: 0, failing: 0 })), { maxLength: 2 }),
          guards: fc.array(fc.oneof(guard, { weight: 3, arbitrary: oddVerdictGuard }), { minLength: 1, maxLength: 3 }),
          wrappers: fc.oneof(fc.constant<WrapperSpec[]>([]), defaults.wrappers),
          calls: { max: 2 },
        })
          .chain(nowAndThen(firstDisposingSelf('guards', { verdict: { kind: 'pass' } }), 2))
          .chain(nowAndThen(allowedOutright))
          .chain(nowAndThen(askGranted)),
      },
      // No other hook, and first an async guard's Promise of nothing, then maybe a guard that passes.
      scenario({
        ...quiet,
        guards: fc.constantFrom<GuardSpec[]>([promiseOfNothing], [promiseOfNothing, { verdict: { kind: 'pass' } }]),
        calls: { max: 2 },
      }),
    ),
  ), bothDirect(disposedGuardAgain, emptyAnswer), { scenario: 5, direct: 1 }), programGuarded, { modes: ['code', 'both'] }),

  custom(
    'GRD-2', 'adding a guard, or a listener that only denies, can only remove executions',
    fc.record({
      // Calls mostly reach the guards (no failing or malformed listeners), and there is a guard the added denial meets.
      base: scenario({
        pre: fc.array(preListener(preDecision({ malformed: 0, failing: 0 })), { maxLength: 2 }),
        guards: fc.array(guard, { minLength: 1, maxLength: 2 }),
        calls: { max: 3, agents: true },
      }),
      addGuard: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      position: fc.nat(3),
    }).chain(nowAndThen((c): AddedDenialCase => ({ ...c, later: true }))).chain(nowAndThen((c): AddedDenialCase => ({ ...c, twice: true }))),
    (c: AddedDenialCase) => [
      ...scenarioStory(c.base),
      `then the same again, with ${c.addGuard ? 'a guard that returns "no"' : 'a pre-execute listener that denies'} added at position ${c.position}`,
      ...(c.later ? [laterDenialStory(c.addGuard)] : []),
      ...(c.twice ? [twiceRegisteredStory] : []),
    ],
    async (ctx, c) => {
      if (c.later) await deniedWhenRegisteredLater(ctx, c.addGuard)
      if (c.twice) await deniedWhenRegisteredTwice(ctx)
      const deny = c.addGuard
      const extended: Scenario = deny
        ? { ...c.base, guards: [...c.base.guards.slice(0, c.position), { verdict: { kind: 'returns', value: 'no' } }, ...c.base.guards.slice(c.position)] }
        : {
          ...c.base,
          pre: [
            ...c.base.pre.slice(0, c.position),
            { timing: 'sync', decision: { kind: 'returns', value: { kind: 'deny', reason: 'no' } } },
            ...c.base.pre.slice(c.position)
          ],
        }
      const before = await runScenario(ctx.adapter, c.base, { budgetMs: 2000 })
      const after = await runScenario(ctx.adapter, extended, { budgetMs: 2000 })
      if (before.adapterError || after.adapterError) return
      for (const call of bodiesRun(after)) {
        if (!bodiesRun(before).has(call)) ctx.fail(`adding a deny-only ${deny ? 'guard' : 'listener'} made ${call} execute`)
      }
    },
  ),

  alongside(judged(
    'GRD-3', 'a guard that throws denies (fail-closed)',
    scenario({
      guards: fc.array(
        fc.oneof(guard, fc.constant({ verdict: { kind: 'throws' as const } })),
        { minLength: 1, maxLength: 2 },
      ).filter((g) => g.some((x) => x.verdict.kind === 'throws')),
    }).chain(nowAndThenWith(builtInThrown, runtimeErrorAtTheGuards, 2)),
  ), grantedThenThrow, { thrown: ['an Error', 'a string'] }),
]
