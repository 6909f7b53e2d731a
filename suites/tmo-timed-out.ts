/**
 * TMO-2's case: a slow tool timed out under the timeout policy, beside a fast one, with now and then
 * a shared caller signal, a delegating or signal-replacing wrapper, a nested first call, a far
 * deadline and an overlapping quick call. Its arbitrary, story and check; suites/tmo.ts holds the property.
 */
import fc from 'fast-check'
import { codeOf, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { nowAndThen, nowAndThenWith } from '../harness/property/vocabulary.js'
import type { ToolExecutionResult, UserMessage } from '../harness/contract/spec.js'
import type { RegistryUnderTest } from '../harness/contract/adapter.js'
import { abortDelivered, abortOf, DELIVERY_GRACE_MS, sleep } from './real-time.js'

/** A case of TMO-2; in a third of them the calls share one caller signal, and in a third a wrapper replaces the signal. */
export interface TimedOutCase {
  timeoutMs: number; cooperative: boolean; lingerMs: number; throws: boolean; delegating: boolean; sharedSignal?: true; replacing?: true
  /** The first call to slow is a nested one, dispatched by a body of its own (where the adapter has the code profile). */
  nested?: true
  /** One more call, to a tool whose timeoutMs (3e9) is past what one setTimeout can wait: its body takes 5 ms and succeeds. */
  farDeadline?: true
  /**
   * A second call to slow, overlapping the first: made while the first's body runs and returning at
   * once, or made first and returning once the first's body has started. Its end leaves the first deadline armed.
   */
  overlapping?: 'quick-after' | 'quick-before'
  /**
   * In the same tick as the first call to slow, one more call, with its callId, to a tool with no
   * deadline that returns once slow's body has started: a callId is the caller's label, not a key.
   */
  sameCallIdBeside?: true
  /** Where the body throws, its error carries a code of its own: TOOL_TIMEOUT is the outcome all the same. */
  coded?: true
  /**
   * While the first call to slow waits at a pre-execute listener, slow is disposed of and registered
   * again, the same body without a timeoutMs: the call keeps its entry definition's deadline, or ends
   * as UNKNOWN_TOOL (FIN-1). Its body then stops waiting for its signal after DELIVERY_GRACE_MS.
   */
  registeredAgainAtGate?: true
  /**
   * The first call's body reports progress: with a timeoutMs of PROGRESS_TIMEOUT_MS, it defers a
   * context at once and then every twelfth of it while it runs (an idle timeout reset by progress is
   * no deadline). Its body then stops waiting for its signal after DELIVERY_GRACE_MS.
   */
  progressing?: true
  /**
   * After slow's quick second call, a third whose body ignores its signal for 1.5 × timeoutMs (at least
   * OVERRUN_MIN_MS) and then returns: a tool that timed out before is given no more time than it declared.
   */
  overrunAgain?: true
}

const overlaps = fc.constantFrom<NonNullable<TimedOutCase['overlapping']>>('quick-after', 'quick-before', 'quick-before', 'quick-before')

/** A valid timeoutMs past 2^31 - 1 ms is a deadline weeks away, not one that fires at once (setTimeout's overflow). */
async function farDeadlineHolds(ctx: CustomContext, registry: RegistryUnderTest): Promise<void> {
  let aborted = false
  registry.register(liveTool('patient', {
    timeoutMs: 3e9,
    execute: (async (_args: unknown, exec: { signal: AbortSignal }) => {
      await sleep(5)
      aborted = exec.signal.aborted
      return { patient: true }
    }) as never,
  }))
  const result = await registry.execute(input('patient'))
  if (aborted || result.isError) ctx.fail(`a tool with timeoutMs 3e9 was ${aborted ? 'aborted' : 'ended as an error'} after 5 ms`)
}

export const timedOutCase: fc.Arbitrary<TimedOutCase> = fc.record({
  timeoutMs: fc.integer({ min: 1, max: 4 }),
  cooperative: fc.boolean(),
  lingerMs: fc.integer({ min: 0, max: 5 }),
  throws: fc.boolean(),
  delegating: fc.boolean(),
}).chain(nowAndThen((c): TimedOutCase => ({ ...c, sharedSignal: true }), 3))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, replacing: true }), 3))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, nested: true }), 3))
  // A timeoutMs under a millisecond is as valid as any positive one: no rounding may drop its deadline.
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, timeoutMs: 0.5 })))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, farDeadline: true })))
  .chain(nowAndThenWith(overlaps, (c: TimedOutCase, overlapping): TimedOutCase => ({ ...c, overlapping }), 2))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, sameCallIdBeside: true })))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, throws: true, coded: true })))
  .chain(nowAndThen((c): TimedOutCase => (c.nested ? c : { ...c, registeredAgainAtGate: true }), 2))
  .chain(nowAndThen((c): TimedOutCase => ({ ...c, timeoutMs: PROGRESS_TIMEOUT_MS, progressing: true }), 3))
  .chain(nowAndThen((c): TimedOutCase => (c.registeredAgainAtGate || c.timeoutMs < 1
    ? c
    : { ...c, timeoutMs: Math.max(c.timeoutMs, OVERRUN_MIN_MS), overrunAgain: true }), 2))

export const timedOutStory = (c: TimedOutCase) => [
  `tool slow, timeoutMs ${c.timeoutMs}: its body ${c.cooperative ? 'waits for its signal' : `ignores its signal for ${c.timeoutMs + 10} ms`}, ` +
    `then lingers ${c.lingerMs} ms and ${c.throws ? `throws${c.coded ? ' an error with a code of its own' : ''}` : 'returns'}`,
  `tool fast, timeoutMs ${c.timeoutMs}: its body returns at once`,
  `the registry has the timeout policy${c.delegating ? ' and a wrapper that calls next() with no overrides' : ''}; ` +
    'one call to slow, then one to fast, then slow again, whose body now returns at once',
  ...(c.sharedSignal ? ['the three calls carry one caller signal, never aborted'] : []),
  ...(c.replacing ? ['a wrapper, registered last, hands next() a signal of its own'] : []),
  ...(c.nested ? ['where the adapter has the code profile, the first call to slow is nested: tool outer\'s body makes it, its token as parent'] : []),
  ...(c.farDeadline ? ['then one call to patient, timeoutMs 3e9 (past one setTimeout\'s reach), whose body takes 5 ms'] : []),
  ...(c.overlapping && (!c.nested || c.overlapping === 'quick-before') ? [c.overlapping === 'quick-after'
    ? 'while the first call\'s body runs, one more call to slow, whose body returns at once'
    : 'just before the first call, one more call to slow, whose body returns once the first call\'s body has started'] : []),
  ...(c.sameCallIdBeside && !c.nested ? ['in the same tick as the first call to slow, a call with its callId to untimed (no timeoutMs), ' +
    'whose body returns once slow\'s has started'] : []),
  ...(c.registeredAgainAtGate ? ['while the first call to slow waits at a pre-execute listener, slow is disposed of and registered ' +
    'again: the same body, no timeoutMs'] : []),
  ...(c.progressing ? ['the first call\'s body defers a context at once and then every twelfth of timeoutMs while it runs'] : []),
  ...(c.overrunAgain ? [`then a third call to slow, whose body ignores its signal for ${c.timeoutMs * 1.5} ms and returns`] : []),
]

const PROGRESS: UserMessage = { role: 'user', content: [{ type: 'text', text: 'still working' }] }
/**
 * A deadline long enough that progress reported every twelfth of it comes well before it, even in a
 * process starved of the CPU for most of it: a timer reset by progress then never fires.
 */
const PROGRESS_TIMEOUT_MS = 60
/** The shortest deadline a body overruns by half: half of it is slack enough for a policy that arms its timer a little late. */
const OVERRUN_MIN_MS = 20

/** Once, while the first call to slow waits at a pre-execute listener: slow disposed of and registered again, with no timeoutMs. */
function registerAgainAtGate(registry: RegistryUnderTest, dispose: () => void, body: unknown): void {
  let done = false
  registry.onPreExecute(async (exec, next) => {
    if (exec.name === 'slow' && exec.callId === 'x-slow' && !done) {
      done = true
      dispose()
      try {
        registry.register(liveTool('slow', { execute: body as never }))
      } catch {
        // A registry that still holds the name refuses it: DEF-2's to judge; the call keeps its entry definition all the same.
      }
    }
    return next()
  })
}

export async function checkTimedOut(ctx: CustomContext, c: TimedOutCase): Promise<void> {
  // A caller's signal may outlive a call (a session's): each call's deadline is still its own.
  const caller = c.sharedSignal ? { signal: new AbortController().signal } : {}
  const registry = await ctx.registry({ timeoutPolicy: true })
  // A wrapper that only delegates hands on the signal of its level: the policy's, wherever it sits.
  if (c.delegating) registry.onExecute((_exec, next) => next())
  // A signal replaced below the policy's still carries the deadline: the registry fuses each replacement with the signal it replaces.
  if (c.replacing) registry.onExecute((_exec, next) => next({ signal: new AbortController().signal }))
  let bodySettled = false
  let sawAbort = false
  let slowCalls = 0
  let overrunSawAbort = false
  let started = () => {}
  const bodyStarted = new Promise<void>((resolve) => (started = resolve))
  // The first call to slow, once made: a quick call waiting for its body waits for its end too.
  let first: Promise<ToolExecutionResult> | undefined
  const slowBody = (async (args: { quick?: true; overrun?: true }, exec: { signal: AbortSignal; deferContext(context: UserMessage): void }) => {
    if (args.quick) return (c.overlapping === 'quick-before' && (await Promise.race([bodyStarted, first])), { quick: true })
    if (args.overrun) {
      await sleep(c.timeoutMs * 1.5)
      await abortDelivered(ctx.adapter, exec.signal)
      return (overrunSawAbort = exec.signal.aborted, { overran: true })
    }
    if (++slowCalls > 1) return { again: true }
    started()
    if (c.progressing) exec.deferContext(PROGRESS)
    const progress = c.progressing ? setInterval(() => exec.deferContext(PROGRESS), c.timeoutMs / 12) : undefined
    try {
      if (c.cooperative && !c.registeredAgainAtGate && !c.progressing) await abortOf(exec.signal)
      else await sleep(c.timeoutMs + 10)
      // The abort may cross a process boundary (--command): allow it time to arrive.
      if (!exec.signal.aborted) await Promise.race([abortOf(exec.signal), sleep(DELIVERY_GRACE_MS)])
      sawAbort = exec.signal.aborted
      await sleep(c.lingerMs)
      if (c.throws) throw Object.assign(new Error('stopped'), c.coded ? { code: 'E_STOPPED' } : {})
      return { finished: true }
    } finally {
      clearInterval(progress)
      bodySettled = true
    }
  }) as never
  const disposeSlow = registry.register(liveTool('slow', { timeoutMs: c.timeoutMs, execute: slowBody }))
  if (c.registeredAgainAtGate) registerAgainAtGate(registry, disposeSlow, slowBody)
  registry.register(liveTool('fast', { timeoutMs: c.timeoutMs }))
  registry.register(liveTool('untimed', { execute: async () => (await Promise.race([bodyStarted, first]), { untimed: true }) }))
  let beside: Promise<ToolExecutionResult> | undefined
  const firstSlowCall = () => {
    first = registry.execute(input('slow', {}, caller))
    if (c.sameCallIdBeside) beside = registry.execute(input('untimed', {}, { ...caller, callId: 'x-slow' }))
    return first
  }
  // A nested call runs the full pipeline (CODE-2): its deadline is its own tool's, as a top-level call's.
  let nestedResult: unknown
  registry.register(liveTool('outer', {
    execute: (async (_args: unknown, exec: { token: unknown }) => {
      nestedResult = await registry.execute(input('slow', {}, { ...caller, parent: exec.token as never }))
      return { dispatched: true }
    }) as never,
  }))
  const nested = c.nested === true && ctx.adapter.profiles.includes('code')
  const quickCall = () => registry.execute(input('slow', { quick: true }, { ...caller, callId: 'x-slow-quick' }))
  const overlapping = async (): Promise<ToolExecutionResult> => {
    const quickBefore = c.overlapping === 'quick-before' ? quickCall() : undefined
    const slow = firstSlowCall()
    // A registry that never starts the body is judged below, not hung here.
    if (!quickBefore) await Promise.race([bodyStarted, slow])
    const quick = await (quickBefore ?? quickCall())
    if (quick.isError && !quickBefore) ctx.fail('a call of slow returning at once, made while another ran, was timed out')
    return slow
  }
  const viaOuter = async (): Promise<ToolExecutionResult> => {
    const quickBefore = c.overlapping === 'quick-before' ? quickCall() : undefined
    await (first = registry.execute(input('outer', {}, caller)))
    await quickBefore
    return nestedResult as ToolExecutionResult
  }
  const result = nested ? await viaOuter() : c.overlapping ? await overlapping() : await firstSlowCall()
  // A call whose tool was disposed of mid-call may end as UNKNOWN_TOOL (FIN-1): no deadline to judge.
  if (c.registeredAgainAtGate && codeOf(registry, result) === 'UNKNOWN_TOOL') {
    if (slowCalls > 0 && !bodySettled) ctx.fail('execute settled before the body did')
    return
  }
  if (!bodySettled) ctx.fail('execute settled before the body did')
  if (!sawAbort) ctx.fail('the body\'s signal had not aborted at timeoutMs')
  if (codeOf(registry, result) !== 'TOOL_TIMEOUT') ctx.fail(
    `the outcome is ${result.isError ? codeOf(registry, result) : 'a success'}, expected TOOL_TIMEOUT`,
  )
  const fast = await registry.execute(input('fast', {}, caller))
  if (fast.isError) ctx.fail('a body finishing at once was timed out')
  // Each call has a deadline of its own: one that passed for an earlier call of the tool is not this one's.
  const again = await registry.execute(input('slow', {}, caller))
  if (again.isError) ctx.fail(`a second call of the tool that timed out, returning at once, ended as ${codeOf(registry, again) ?? 'an error'}`)
  if (c.overrunAgain) {
    const overrun = await registry.execute(input('slow', { overrun: true }, caller))
    if (!overrunSawAbort) ctx.fail('a third call of slow, its body running past timeoutMs, did not see its signal abort')
    else if (codeOf(registry, overrun) !== 'TOOL_TIMEOUT') ctx.fail(`a third call of slow, its body aborted at timeoutMs, ended as ${
      overrun.isError ? codeOf(registry, overrun) : 'a success'}, expected TOOL_TIMEOUT`)
  }
  if (c.farDeadline) await farDeadlineHolds(ctx, registry)
  if (beside && (await beside).isError) ctx.fail('a call with no deadline, made beside the first call to slow with its callId, ended in error')
}
