/** CAN: cancellation is cooperative and quiescent. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  contentDesc,
  isContent,
  inFlightAtOnce,
  nowAndThen,
  nowAndThenWith,
  poisoned,
  preListener,
  quiet,
  scenario,
  succeedingTool,
  tool,
  toolOfItsOwn,
  withNestedCallLast,
  type DecisionSpec,
  type PostSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
  type WrapperSpec,
} from '../harness/property/vocabulary.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { abortOf, sleep } from './real-time.js'
import { withDirect } from './with-direct.js'
import { signalReusedAfterAbort } from './can-signal-reused.js'

/** Gates that let the call through, each pausing at a scheduler point where the abort can land. */
const passing = fc.constantFrom<DecisionSpec>({ kind: 'delegate' }, { kind: 'returns', value: { kind: 'allow' } })
const awaitingGates = {
  pre: fc.array(preListener(passing).map((p) => ({ ...p, timing: 'await' as const })), { minLength: 1, maxLength: 2 }),
  wrappers: fc.array(
    fc.record({ timing: fc.constant('await' as const), action: fc.constantFrom<WrapperSpec['action']>({ kind: 'pass' }, { kind: 'replace-signal' }) }),
    { maxLength: 2 },
  ),
}
/**
 * No listener and no wrapper: the abort can land only while the registry enters the call (before
 * any body), where a registry that looks at the signal only at its gates never sees it.
 */
const withoutGates = (s: Scenario): Scenario => ({ ...s, pre: [], wrappers: [] })
/** Long-running tools whose bodies pass scheduler points first, so an abort can land mid-body and the body runs on. */
const longTools = fc.uniqueArray(
  tool({ longRunning: true }).map((t): ToolSpec => ({ ...t, body: { ...t.body, steps: [{ kind: 'await' }, ...t.body.steps] } })),
  { minLength: 1, maxLength: 2, selector: (t) => t.name },
)
/**
 * In a third of the cases the innermost wrapper calls next() without waiting for it and returns a
 * success of its own while the body runs on: only a look at the signal once the body settled, not
 * when the chain returned, sees an abort landing then. The tools accept any lossless value, so the
 * made-up success stands until the abort.
 */
const leavingBodyRunning: fc.Arbitrary<WrapperSpec> = fc
  .constantFrom<ValueDesc>({ ok: true }, 'made up', 7)
  .map((value) => ({ timing: 'sync', action: { kind: 'unawaited-next', result: { isError: false, value, content: [] } } }))
const canThreeChains = fc.oneof(
  { weight: 2, arbitrary: awaitingGates.wrappers },
  { weight: 1, arbitrary: fc.tuple(awaitingGates.wrappers, leavingBodyRunning).map(([outer, inner]) => [...outer.slice(0, 1), inner]) },
)
const leavesBodyRunning = (s: { wrappers: WrapperSpec[] }) => s.wrappers.some((w) => w.action.kind === 'unawaited-next')

/**
 * In a third of CAN-3's scenario cases the calls, all of one tool, are in flight at once and the
 * innermost wrapper leaves each body running: each call waits for its own body, not another call's
 * of the tool.
 * Drawn last.
 */
function bodiesLeftRunningAtOnce(s: Scenario): Scenario {
  const inner: WrapperSpec = { timing: 'sync', action: { kind: 'unawaited-next', result: { isError: false, value: 7, content: [] } } }
  const atOnce = inFlightAtOnce(s)
  if (atOnce === s) return s
  const first = atOnce.calls[0]!
  const calls = atOnce.calls.map((c) => (c.tool === first.tool ? c : first))
  return { ...atOnce, calls, wrappers: leavesBodyRunning(s) ? s.wrappers : [...s.wrappers.slice(0, 1), inner] }
}

/**
 * In a third of CAN-4's scenario cases a tool of its own returns, after a scheduler point, a value
 * its output schema refuses, and one more call, whose caller aborts the moment that body settles,
 * calls it, with no listener to deny or block it: INVALID_TOOL_OUTPUT is no success, so it stays,
 * never ABORTED. Drawn last.
 */
function refusingItsOutput(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === 'refused')) return s
  const outcome = { kind: 'return', value: { done: true } } as const
  const outputSchema: ValueDesc = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
  const refused = toolOfItsOwn(model, 'refused', { outputSchema, body: { steps: [{ kind: 'await' }], outcome } })
  return { ...s, pre: [], post: [], tools: [...s.tools, refused], calls: [...s.calls, { tool: 'refused', args: {}, abortAsBodySettles: true }] }
}

/**
 * In half of CAN-4's scenario cases a tool of its own throws an AbortError of its own (as
 * `signal.throwIfAborted()` does) after a scheduler point, and one more call, whose caller aborts
 * the moment that body settles, calls it: a tool's own error all the same, never ABORTED. Drawn last.
 */
function throwingAbortError(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === 'aborting')) return s
  const thrown: ValueDesc = { $: 'error', name: 'AbortError' }
  const aborting = toolOfItsOwn(model, 'aborting', { body: { steps: [{ kind: 'await' }], outcome: { kind: 'throw', thrown } } })
  return { ...s, tools: [...s.tools, aborting], calls: [...s.calls, { tool: 'aborting', args: {}, abortAsBodySettles: true }] }
}

/**
 * In half of CAN-1's and CAN-2's cases every abort gives a reason of the caller's own: a falsy one
 * (null, 0, '', false), a string, or an error named TimeoutError, as AbortSignal.timeout() gives.
 * Cancellation is whether the signal aborted, whatever its reason: a caller's deadline is not a
 * tool's timeout. Drawn last, so the rest of a case is what it was before.
 */
const deadlineReason: ValueDesc = { $: 'error', name: 'TimeoutError' }
const callerReason = fc.constantFrom<ValueDesc>(null, 0, '', false, 'stopped by the user', 'stopped', deadlineReason)
const withAbortReason = (every: number) => nowAndThenWith(callerReason, (s: Scenario, abortReason: ValueDesc): Scenario => (
  { ...s, calls: s.calls.map((c) => ({ ...c, abortReason })) }
), every)
/** In a quarter of CAN-1's cases more, every abort's reason is the caller's deadline (a TimeoutError). Drawn last. */
const withDeadlineReason = (s: Scenario): Scenario => ({ ...s, calls: s.calls.map((c) => ({ ...c, abortReason: deadlineReason })) })
/**
 * A call of the case's own, last and not aborted, whose body dispatches a nested call handed a signal
 * of its own that is already aborted: the nested call is refused at entry like any call, whatever its
 * parent's signal says. The case's hooks stay, so the nested call has listeners and guards to skip.
 */
const withNestedAbortedAtEntry = (s: Scenario): Scenario => withNestedCallLast(s, { dispatch: { abortedSignal: true }, keepHooks: true })

const erroringTool = tool().map((t): ToolSpec => (
  { ...t, body: { steps: [{ kind: 'await' }], outcome: { kind: 'throw', thrown: { $: 'error', code: 'E_TOOL' } } } }
))
/** A post-execute listener that passes a scheduler point first, so an abort can land while it runs; it blocks or accepts. */
const awaitingPost: fc.Arbitrary<PostSpec> = fc.record({
  timing: fc.constant('await' as const),
  decision: fc.oneof(
    contentDesc.filter(isContent).map((feedback): DecisionSpec => ({ kind: 'returns', value: { kind: 'block', feedback } })),
    fc.constant<DecisionSpec>({ kind: 'returns', value: { kind: 'accept' } }),
  ),
})

/**
 * A body that goes on for a while after its caller aborted, as real tools do (a request in flight,
 * a file being written): execute waits for it however long it takes, never a grace period of its own.
 */
const stubbornBody = custom(
  'CAN-3', 'execute settles only after a started body settles, however long it runs on after the abort, and then not as a success',
  fc.record({ runsOnMs: fc.constant(150), succeeds: fc.boolean() }),
  (c) => [
    `tool stubborn: its body ignores its signal for ${c.runsOnMs} ms, then ${c.succeeds ? 'returns' : 'throws'}`,
    'one call to stubborn, whose caller aborts as soon as the body starts',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const caller = new AbortController()
    let settled = false
    registry.register(liveTool('stubborn', {
      execute: (async () => {
        caller.abort()
        await sleep(c.runsOnMs)
        settled = true
        if (!c.succeeds) throw new Error('stopped late')
        return { finished: true }
      }) as never,
    }))
    const result = await registry.execute(input('stubborn', {}, { signal: caller.signal }))
    if (!settled) ctx.fail(`execute settled while the body, aborted, still ran (it runs on for ${c.runsOnMs} ms)`)
    else if (!result.isError) ctx.fail('the body returned after its caller aborted, and its success was published')
  },
  'core', 8, 5000,
)

/** How long after its deadline a body waits for its signal to abort before this case gives up on it. */
const DEADLINE_GRACE_MS = 250

/**
 * A TOOL_TIMEOUT is no success: the caller's abort, landing once the deadline has passed, leaves it
 * as it is. Only a registry with the timeout policy (the timeout profile) can time a call out; on
 * another, this case checks nothing, nor where the deadline never reaches the body (TMO-2's fault).
 */
const timeoutStays = custom(
  'CAN-4', 'a TOOL_TIMEOUT stays TOOL_TIMEOUT when the caller aborts after the deadline',
  fc.record({ timeoutMs: fc.integer({ min: 1, max: 4 }), lingerMs: fc.integer({ min: 0, max: 5 }), throws: fc.boolean() }),
  (c) => [
    `the registry has the timeout policy; tool slow, timeoutMs ${c.timeoutMs}: its body waits for its signal, ` +
      `then lingers ${c.lingerMs} ms and ${c.throws ? 'throws' : 'returns'}`,
    'one call to slow, whose caller aborts the moment the body sees its signal abort',
  ],
  async (ctx, c) => {
    if (!ctx.adapter.profiles.includes('timeout')) return
    const registry = await ctx.registry({ timeoutPolicy: true })
    const caller = new AbortController()
    let timedOut = false
    registry.register(liveTool('slow', {
      timeoutMs: c.timeoutMs,
      execute: (async (_args: unknown, exec: { signal: AbortSignal }) => {
        await Promise.race([abortOf(exec.signal), sleep(c.timeoutMs + DEADLINE_GRACE_MS)])
        timedOut = exec.signal.aborted
        if (!timedOut) return { finished: true }
        caller.abort()
        await sleep(c.lingerMs)
        if (c.throws) throw new Error('stopped')
        return { finished: true }
      }) as never,
    }))
    const result = await registry.execute(input('slow', {}, { signal: caller.signal }))
    if (!timedOut) return
    const ended = result.isError ? codeOf(registry, result) : 'a success'
    if (ended !== 'TOOL_TIMEOUT') ctx.fail(`a call that timed out, then was aborted by its caller, ended as ${ended}, expected TOOL_TIMEOUT`)
  },
)

export default [
  withDirect(judged(
    'CAN-1', 'a signal aborted at entry yields ABORTED_BEFORE_DISPATCH and runs nothing — though invalid arguments still win',
    scenario({
      calls: { abortAtEntry: 100, max: 2, args: fc.oneof({ weight: 3, arbitrary: fc.constant<ValueDesc>({}) }, { weight: 1, arbitrary: poisoned }) },
    }).chain(withAbortReason(2)).chain(nowAndThen(withDeadlineReason)).chain(nowAndThen(withNestedAbortedAtEntry)),
  ), signalReusedAfterAbort, { everyLast: 4 }),
  judged(
    'CAN-2', 'an abort before the body starts — during a gate, approval or wrapper — means the body never runs',
    scenario({ ...quiet, ...awaitingGates, calls: { abortScheduled: 100, max: 2 } }).chain(withAbortReason(2)).chain(nowAndThen(withoutGates)),
  ),
  withDirect(judged(
    'CAN-3', 'a started body is never abandoned: execute settles after it, and then a success becomes ABORTED',
    // In three calls of four the caller aborts the moment the body settles: no look at the signal after it misses that.
    scenario({ ...quiet, tools: longTools, wrappers: canThreeChains, calls: { abortScheduled: 100, abortAsBodySettles: 75, max: 2 } })
      .chain(nowAndThen(bodiesLeftRunningAtOnce, 3))
      .map((s) => (leavesBodyRunning(s) ? { ...s, tools: s.tools.map((t) => ({ ...t, outputSchema: ANY_SCHEMA })) } : s)),
  ), stubbornBody, { scenario: 9, direct: 1 }),
  withDirect(judged(
    'CAN-4', 'cancellation replaces only successes: a denial, a tool\'s own error, a post-execute block or a TOOL_TIMEOUT stays as it is',
    scenario({
      ...quiet,
      // A post-execute listener in half the cases, and in half the calls the abort as it begins: it lands while the
      // listener blocks a success or passes on a tool's error.
      tools: fc.array(fc.oneof({ weight: 2, arbitrary: erroringTool }, { weight: 1, arbitrary: succeedingTool() }), { minLength: 1, maxLength: 1 }),
      pre: fc.array(preListener(), { maxLength: 2 }),
      post: fc.array(awaitingPost, { maxLength: 1 }),
      calls: { abortScheduled: 100, abortWhilePostRuns: 50 },
    }).chain(nowAndThen(throwingAbortError, 2)).chain(nowAndThen(refusingItsOutput, 3)),
  ), timeoutStays, { scenario: 5, direct: 1 }),
]
