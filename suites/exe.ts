/** EXE: tools/execute, the around-wrapper. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  defaults,
  firstDisposingSelf,
  nowAndThen,
  nowAndThenWith,
  postListener,
  quiet,
  scenario,
  SHADOWED,
  shadowedForA,
  succeedingTool,
  timing,
  tool,
  wrapper,
  type ToolSpec,
  type Scenario,
  type ValueDesc,
  type WrapperSpec,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { custom, input } from '../harness/property/custom-property.js'
import { alongside, bothDirect, withDirect } from './with-direct.js'
import { registerWaiter } from './exe-waiter.js'
import { sharedCallerSignal } from './exe-shared-caller-signal.js'
import { fallbackSuccess } from './exe-fallback-success.js'
import { signalLikeReplacement } from './exe-signal-like-replacement.js'
import { cachedResult } from './exe-cached-result.js'
import { disposedSecondRegistration } from './exe-registered-twice.js'
import { overlappingCalls } from './exe-overlapping-calls.js'

const wrappers = (min: number, filter: (w: WrapperSpec) => boolean = () => true) => fc.array(wrapper.filter(filter), { minLength: min, maxLength: 3 })
/**
 * In a quarter of EXE-1's cases the first wrapper is agent A's, a global one registered after it,
 * and every call is A's: registration order, not scope, decides the nesting. Drawn last, so the
 * rest of a case is what it was before.
 */
const scopedFirst = (s: Scenario): Scenario => ({
  ...s,
  wrappers: [...s.wrappers.map((w, i) => (i === 0 ? { ...w, scope: 'A' as const } : w)), { timing: 'sync', action: { kind: 'pass' } }],
  calls: s.calls.map((c) => ({ ...c, agent: 'A' as const })),
})
/**
 * In a third of EXE-1's cases the wrappers drawn all call next(), nesting as drawn, and one more,
 * global and registered last (the innermost), returns nothing without next(): undefined, null, or an
 * async wrapper's promise of undefined. No body runs, whatever the registry makes of the nothing it got. Drawn last.
 */
const nothings = fc.constantFrom<ValueDesc>({ $: 'undefined' }, null, { $: 'promise', value: { $: 'undefined' } })
const returnsNothingInnermost = (s: Scenario, result: ValueDesc): Scenario => ({
  ...s,
  wrappers: [...s.wrappers.map((w): WrapperSpec => ({ ...w, action: { kind: 'pass' } })), { timing: 'sync', action: { kind: 'made-up', result } }],
})
/**
 * In a third of EXE-4's cases the first made-up result is deep-frozen, as next()'s own results may
 * be: being frozen says nothing of where a result came from (drawn last, as scopedFirst is).
 */
const frozenMadeUp = (s: Scenario): Scenario => {
  const first = s.wrappers.findIndex((w) => w.action.kind === 'made-up')
  return { ...s, wrappers: s.wrappers.map((w, i) => (i === first ? { ...w, action: { ...w.action, frozen: true } as WrapperSpec['action'] } : w)) }
}
/**
 * In a quarter of EXE-4's cases the first made-up result is a success carrying content of its own,
 * made up for the first call's tool, whose output takes any JSON, rendered as its JSON text: the
 * value is rendered all the same, and what the wrapper wrote is never published. Drawn last.
 */
/**
 * In a quarter of EXE-4's cases the first made-up result is a plain success, `{ made: 'up' }`, for a
 * tool that projects meta: the made-up value is rendered and projected like a body's. Drawn last.
 */
const madeUpWithMeta = (s: Scenario): Scenario => {
  const first = s.wrappers.findIndex((w) => w.action.kind === 'made-up')
  const target = s.calls[0]?.tool
  const projecting = ({ finalize: _finalize, ...t }: ToolSpec): ToolSpec =>
    ({ ...t, outputSchema: ANY_SCHEMA, render: { kind: 'json-text' }, meta: { kind: 'json-text' } })
  const result: ValueDesc = { isError: false, value: { made: 'up' } }
  return {
    ...s,
    tools: s.tools.map((t) => (t.name === target ? projecting(t) : t)),
    wrappers: s.wrappers.map((w, i) => (i === first && w.action.kind === 'made-up' ? { ...w, action: { ...w.action, result } } : w)),
  }
}
/**
 * In a quarter of EXE-4's cases a global tool of its own, taking any JSON, is shadowed for agent A
 * by one whose output schema requires an integer `n`, every wrapper is global and calls next() but
 * one, registered last, that makes up `{ made: 'up' }`, and A calls the name: the made-up value is
 * validated against A's tool and refused, whatever the tool it shadows takes. Drawn last.
 */
const madeUpForAShadowingTool = (s: Scenario): Scenario => {
  const [model] = s.tools
  if (!model || s.tools.some((t) => t.name === SHADOWED)) return s
  const open = { outputSchema: ANY_SCHEMA, render: { kind: 'json-text' }, finalize: { kind: 'keep' } } satisfies Partial<ToolSpec>
  const strict: ValueDesc = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
  const [global, own] = shadowedForA(model, open, { ...open, outputSchema: strict })
  const passing = s.wrappers.map((w): WrapperSpec => ({ timing: w.timing, action: { kind: 'pass' } }))
  const madeUp: WrapperSpec = { timing: 'sync', action: { kind: 'made-up', result: { isError: false, value: { made: 'up' } } } }
  return { ...s, tools: [...s.tools, global, own], wrappers: [...passing, madeUp], calls: [...s.calls, { tool: SHADOWED, args: {}, agent: 'A' }] }
}
const madeUpWithContent = (s: Scenario): Scenario => {
  const first = s.wrappers.findIndex((w) => w.action.kind === 'made-up')
  const target = s.calls[0]?.tool
  const result: ValueDesc = { isError: false, value: { made: 'up' }, content: [{ type: 'text', text: 'written by the wrapper' }] }
  const open = ({ finalize: _finalize, ...t }: ToolSpec): ToolSpec => ({ ...t, outputSchema: ANY_SCHEMA, render: { kind: 'json-text' } })
  return {
    ...s,
    tools: s.tools.map((t) => (t.name === target ? open(t) : t)),
    wrappers: s.wrappers.map((w, i) => (i === first && w.action.kind === 'made-up' ? { ...w, action: { ...w.action, result } } : w)),
  }
}
/**
 * In half of EXE-3's cases what throws throws a value shaped like a wrapper's answer: a success
 * or a failure of its own making. Thrown, it is a throw all the same, never a result. Drawn last.
 */
const answerShaped = fc.constantFrom<ValueDesc>(
  { isError: false, value: { made: 'up' } },
  { isError: false, value: 'thrown', content: [{ type: 'text', text: 'thrown' }] },
  { isError: true, error: { message: 'thrown', code: 'E_THROWN' }, content: [{ type: 'text', text: 'thrown' }] },
)
const throwingAnswers = (s: Scenario, hooksThrow: ValueDesc): Scenario => ({ ...s, hooksThrow })
const waitingTool = tool().map((t): ToolSpec => (
  { ...t, body: { steps: [{ kind: 'await' }], outcome: { kind: 'until-aborted', value: 1 } }, outputSchema: ANY_SCHEMA, render: { kind: 'json-text' } }
))

/**
 * The replacement must arrive: a wrapper that replaces the signal (next({ signal }), which the
 * adapter translates) and then aborts its replacement sees the body's signal abort. Without this,
 * a registry that never receives the replacement passes the caller-abort check vacuously.
 */
const replacementArrives = custom(
  'EXE-2', 'a wrapper\'s replacement signal reaches the body: aborting it aborts the signal the body holds',
  fc.record({
    wrappers: fc.integer({ min: 1, max: 3 }),
    replacing: fc.nat(2),
    aborting: fc.nat(2),
  }),
  (c) => [
    `tool waiter: its body waits for its signal`,
    `${c.wrappers} wrapper(s); wrapper #${c.replacing % c.wrappers} replaces the signal, the others call next()`,
    'one call to waiter; once its body runs, the replacement signal is aborted',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const caller = new AbortController()
    const waiter = registerWaiter(registry)
    const replacing = c.replacing % c.wrappers
    const replacement = new AbortController()
    for (let i = 0; i < c.wrappers; i++) {
      registry.onExecute((_exec, next) => (i === replacing ? next({ signal: replacement.signal }) : next()))
    }
    const pending = registry.execute(input('waiter', {}, { signal: caller.signal }))
    await Promise.race([waiter.running, pending])
    const held = waiter.held()
    if (!held) return ctx.fail('the body never ran')
    replacement.abort()
    if (!held.aborted) ctx.fail(
      `wrapper ${replacing} of ${c.wrappers} replaced the signal and aborted its replacement, but the signal the body holds did not abort`,
    )
    caller.abort()
    await pending
  },
)

/**
 * How EXE-2's wrappers call next(): with a signal of their own, or with no replacement at all
 * (`{}`, `{ signal: undefined }`), which leaves the body the caller's signal.
 */
const overridingSignal = fc.constantFrom<WrapperSpec['action']>(
  { kind: 'replace-signal' }, { kind: 'empty-override' }, { kind: 'empty-override', signalKey: true },
)

export default [
  withDirect(judged(
    'EXE-1', 'wrappers nest in registration order, the innermost next() runs the body, and a wrapper that returns without next() means no body',
    scenario({ ...quiet, wrappers: wrappers(1) })
      .chain(nowAndThen(scopedFirst))
      .chain(nowAndThen(firstDisposingSelf('wrappers', { action: { kind: 'pass' } }), 2))
      .chain(nowAndThenWith(nothings, returnsNothingInnermost, 3)),
  ), bothDirect(disposedSecondRegistration, overlappingCalls), { everyLast: 4 }),
  alongside(alongside(withDirect(judged(
    'EXE-2', 'a replacement signal reaches the body and cannot hide cancellation: when the caller\'s signal aborts, the body\'s signal aborts too',
    scenario({
      ...quiet,
      tools: fc.array(waitingTool, { minLength: 1, maxLength: 1 }),
      wrappers: fc.array(
        fc.record({ timing: fc.constantFrom('sync' as const, 'await' as const), action: overridingSignal }),
        { minLength: 1, maxLength: 2 },
      ),
      calls: { abortScheduled: 100 },
    }),
  ), replacementArrives, { scenario: 1, direct: 1 }), sharedCallerSignal, { calls: 3 }), signalLikeReplacement, { claimsAborted: [false, true] }),
  judged(
    'EXE-3', 'a wrapper that throws or rejects ends the call with an error outcome',
    scenario({
      ...quiet,
      wrappers: fc.oneof(
        wrappers(1).filter((ws) => ws.some((w) => w.action.kind === 'throws' || w.action.kind === 'rejects')),
        // A wrapper that throws once next() resolved: the body ran, and its result is lost all the same.
        fc.tuple(wrappers(0, (w) => w.action.kind === 'pass' || w.action.kind === 'replace-signal'), timing).map(
          ([ws, t]): WrapperSpec[] => [...ws.slice(0, 1), { timing: t, action: { kind: 'throws-after-next' } }],
        ),
      ),
      post: fc.array(postListener, { maxLength: 1 }),
    }).chain(nowAndThenWith(answerShaped, throwingAnswers, 2)),
  ),
  alongside(withDirect(judged(
    'EXE-4', 'a success a wrapper makes up is validated against output.schema and rendered like a body\'s value',
    scenario({
      ...quiet,
      // Tools with no finalizer or meta of their own, so nothing after the wrapper masks its made-up value.
      tools: fc.oneof(defaults.tools, fc.uniqueArray(succeedingTool(), { minLength: 1, maxLength: 2, selector: (t) => t.name })),
      wrappers: wrappers(1).filter((ws) => ws.some((w) => w.action.kind === 'made-up')),
    }).chain(nowAndThen(frozenMadeUp, 3)).chain(nowAndThen(madeUpWithContent)).chain(nowAndThen(madeUpWithMeta))
      .chain(nowAndThen(madeUpForAShadowingTool)),
  ), cachedResult), fallbackSuccess, { failures: ['throws an Error', 'rejects with a string'] }),
]
