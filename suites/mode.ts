/** MODE: concurrency classification, exclusive by default. */
import fc from 'fast-check'
import {
  argumentClassifier,
  jsonValue,
  nowAndThen,
  poisoned,
  quiet,
  scenario,
  SHADOWED,
  shadowedForA, toolOfItsOwn,
  times,
  tool,
  type CallSpec,
  type ClassifierSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { codeOf, custom } from '../harness/property/custom-property.js'
import { modeAfterLifecycle } from './mode-after-lifecycle.js'
import { bothDirect, withDirect } from './with-direct.js'
import { unreadableInput } from './mode-unreadable-input.js'
import { undescribableThrow } from './mode-undescribable-throw.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolExecution, ToolExecutionInput } from '../harness/contract/spec.js'

/** Classifiers that answer true, always or from the arguments they are handed. */
const safeTools = fc.uniqueArray(
  fc.tuple(
    tool({ scoped: true, define: true }),
    fc.oneof(fc.constant<ClassifierSpec>({ kind: 'returns', value: true }), { weight: 3, arbitrary: argumentClassifier }),
  ).map(([t, classifier]): ToolSpec => ({ ...t, classifier })),
  { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` },
)
/**
 * A defineTool tool hands executionMode only booleans (DEF-5) and a scoped tool is hidden from most calls, so here two
 * in three tools are raw definitions and at least half are global: the odd classifier answers reach the registry.
 */
const anyTool = fc
  .tuple(tool({ scoped: true, define: true }), fc.nat(2), fc.boolean())
  .map(([{ define: _define, scope, ...t }, d, global]): ToolSpec => ({ ...t, ...(d === 0 ? { define: true } : {}), ...(scope && !global ? { scope } : {}) }))
const anyTools = fc.uniqueArray(anyTool, { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` })

/** Arguments that hold the keys an argument classifier reads, valid for every defineTool schema, and now and then anything. */
const argumentsOften: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ path: fc.string({ maxLength: 4 }), n: fc.integer({ min: -9, max: 9 }), q: jsonValue }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.oneof(jsonValue, poisoned) },
)

/**
 * In a quarter of the cases two more calls of the first tool, one with none of the keys an argument
 * classifier reads and one with all of them: its answer depends on the arguments, so a registry
 * that remembers a tool's first answer classifies one of them wrong. Drawn last, so the rest of a
 * case is what it was before.
 */
function withCallsBothWays(s: Scenario): Scenario {
  const t = s.tools[0]
  if (!t) return s
  const call = (args: ValueDesc): CallSpec => ({ tool: t.name, args, ...(t.scope ? { agent: t.scope } : {}) })
  return { ...s, calls: [...s.calls, call({}), call({ path: 'p', n: 1, q: 1 })] }
}

/**
 * In a third of the cases the first tool answers `new Boolean(true)`, the one answer that is true
 * when unwrapped: drawn last, so the rest of a case is what it was before.
 */
function withBoxedTrue(s: Scenario): Scenario {
  const name = s.tools[0]?.name
  const boxed: ClassifierSpec = { kind: 'returns', value: { $: 'boolean-object' } }
  return { ...s, tools: s.tools.map((t) => (t.name === name ? { ...t, classifier: boxed } : t)) }
}

/**
 * In a quarter of the cases a global tool of the case's own answers a promise of `true`, and is
 * called twice with the same arguments, the second time once the promise settled: exclusive both
 * times (a registry that remembers what the promise settled to, per tool and arguments, answers the
 * second from its memo). Not in Code Mode, where a direct call to it is hidden. Drawn last.
 */
function classifiedAgain(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.config.mode === 'code' || s.tools.some((t) => t.name === SETTLES_TRUE)) return s
  const own = toolOfItsOwn(model, SETTLES_TRUE, { classifier: { kind: 'returns', value: { $: 'promise', value: true } }, define: false })
  const call = { tool: SETTLES_TRUE, args: { path: 'a' } }
  return { ...s, tools: [...s.tools, own], calls: [...s.calls, call, call] }
}
const SETTLES_TRUE = 'settles_true'

/**
 * In a quarter of the cases the registry runs in Code Mode and the first tool, global, answers exactly
 * true: every direct call to it is hidden, so exclusive whatever its classifier says. Drawn last.
 */
function hiddenButSafe(s: Scenario): Scenario {
  const classified = firstToolClassifiedBy(s, { kind: 'returns', value: true })
  return classified === s ? s : { ...classified, config: { ...s.config, mode: 'code' } }
}

/**
 * In a quarter of MODE-2's cases a tool of agent A's own, and A's only, answers exactly true, and is
 * called by A, by B and by no agent: the tool is unknown to the two others, so exclusive for them.
 * Drawn last.
 */
function safeForAOnly(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === A_ONLY)) return s
  const own: ToolSpec = { ...toolOfItsOwn(model, A_ONLY, { classifier: { kind: 'returns', value: true } }), scope: 'A' }
  const calls: CallSpec[] = [{ tool: A_ONLY, args: {}, agent: 'A' }, { tool: A_ONLY, args: {}, agent: 'B' }, { tool: A_ONLY, args: {} }]
  return { ...s, tools: [...s.tools, own], calls: [...s.calls, ...calls] }
}
const A_ONLY = 'for_a_only'

/**
 * In a quarter of MODE-2's cases a tool of its own has a classifier that reads its argument's `path`:
 * true where it is there, a TypeError where it is not. It is called with a path, then without: a
 * throw is exclusive, whatever the tool answered before. Drawn last.
 */
function readsItsArgument(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === READS_PATH)) return s
  const own = toolOfItsOwn(model, READS_PATH, { classifier: { kind: 'has-key', key: 'path', throwsWithout: true }, define: false })
  return { ...s, tools: [...s.tools, own], calls: [...s.calls, { tool: READS_PATH, args: { path: 'a' } }, { tool: READS_PATH, args: {} }] }
}
const READS_PATH = 'reads_path'

/** The case with its first tool global and defined raw, classified by `classifier`, and called once more. */
function firstToolClassifiedBy(s: Scenario, classifier: ClassifierSpec): Scenario {
  const first = s.tools[0]
  if (!first) return s
  const { scope: _scope, define: _define, ...raw } = first
  const classified: ToolSpec = { ...raw, classifier }
  return { ...s, tools: [classified, ...s.tools.slice(1).filter((t) => t.name !== first.name)], calls: [...s.calls, { tool: first.name, args: {} }] }
}
/**
 * In a quarter of MODE-2's cases the first tool has `isConcurrencySafe: true` (the value, not a
 * function answering it): a non-function is exclusive, however much it reads like the answer. Drawn last.
 */
const shorthandTrue = (s: Scenario): Scenario => firstToolClassifiedBy(s, { kind: 'not-a-function', value: true })
/**
 * In a quarter of MODE-2's cases the first tool answers the verdict object other APIs use,
 * `{ kind: 'parallel' }`: only an exact true is parallel. Drawn last.
 */
const verdictObject = (s: Scenario): Scenario => firstToolClassifiedBy(s, { kind: 'returns', value: { kind: 'parallel' } })
/**
 * In a quarter of MODE-2's cases a global tool of its own whose classifier answers true is shadowed
 * for agent A by one with no classifier, and A calls the name, then a global caller does: A's call
 * is exclusive, whatever the tool it shadows answers. Drawn last.
 */
const shadowedWithoutClassifier = (s: Scenario): Scenario => {
  const [model] = s.tools
  if (!model || s.tools.some((t) => t.name === SHADOWED)) return s
  const [global, own] = shadowedForA(model, { classifier: { kind: 'returns', value: true } }, { classifier: { kind: 'absent' } })
  const calls: CallSpec[] = [...s.calls, { tool: SHADOWED, args: {}, agent: 'A' }, { tool: SHADOWED, args: {} }]
  return { ...s, tools: [...s.tools, global, own], calls }
}

interface BatchCase {
  calls: { safe: boolean; awaits: number }[]
  maxParallel: number
  abortAfter: number | undefined
  /** A batch that never aborts may be run without a signal at all. */
  withSignal: boolean
  /** The last call is the first one's input object handed again: its result still takes its own place. */
  repeatsFirst?: true
  /** Every call parallel-safe and waiting, maxParallel 1, every other call to a second safe tool: the bound holds across tools. */
  twoSafeTools?: true
  /** Calls of agents A and B and global calls in one batch: exclusivity and the bound hold across callers. */
  mixedAgents?: true
  /** The batch's signal is aborted before runBatch is called: no call starts. */
  abortedBefore?: true
  /** A batch of one call ran to its end on the same signal first: a second batch on a signal stops all the same. */
  afterAnotherBatch?: true
  /** Every call to one tool whose classifier reads its arguments: a call is exclusive or not by its own arguments. */
  oneToolByArguments?: true
}

/**
 * Every call to one tool, parallel-safe by its arguments (`safe: true`) or exclusive, the first two
 * one of each and waiting, at most two at once: a verdict kept per tool name lets the second overlap.
 */
function oneToolByArguments(c: BatchCase): BatchCase {
  const { twoSafeTools: _two, ...rest } = c
  const calls = [{ safe: true, awaits: 1 }, { safe: false, awaits: 1 }, ...c.calls.slice(2)]
  return { ...rest, calls, maxParallel: Math.max(c.maxParallel, 2), oneToolByArguments: true }
}

/**
 * A batch of one call first, on the same signal and with a wider pool, and then this batch, one
 * call at a time, whose signal aborts as one of its first bodies starts, before its last call: the
 * abort stops the second batch as it would the first, and the first batch's pool bound is not this one's.
 */
function afterAnotherBatch(c: BatchCase): BatchCase {
  const { abortedBefore: _before, ...rest } = c
  const calls = c.calls.length > 1 ? c.calls : [...c.calls, ...c.calls]
  return { ...rest, calls, maxParallel: 1, abortAfter: Math.min(c.abortAfter ?? 0, calls.length - 2), afterAnotherBatch: true }
}

const batchCase: fc.Arbitrary<BatchCase> = fc.record({
  calls: fc.array(fc.record({ safe: fc.boolean(), awaits: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 6 }),
  maxParallel: fc.integer({ min: 1, max: 3 }),
  abortAfter: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
  withSignal: fc.boolean(),
}).chain(nowAndThen((c): BatchCase => ({ ...c, calls: [...c.calls, c.calls[0]!], repeatsFirst: true })))
  .chain(nowAndThen((c): BatchCase => {
    const calls = (c.calls.length > 1 ? c.calls : [...c.calls, ...c.calls]).map((call) => ({ safe: true, awaits: Math.max(call.awaits, 1) }))
    return { ...c, calls, maxParallel: 1, twoSafeTools: true }
  }))
  .chain(nowAndThen((c): BatchCase => ({ ...c, calls: c.calls.length > 1 ? c.calls : [...c.calls, { safe: false, awaits: 1 }], mixedAgents: true })))
  .chain(nowAndThen((c): BatchCase => ({ ...c, abortAfter: undefined, abortedBefore: true }), 8))
  .chain(nowAndThen(afterAnotherBatch))
  .chain(nowAndThen(oneToolByArguments))

/** Under `mixedAgents`, call i is agent A's, agent B's, or global, in turn. */
const callerOf = (c: BatchCase, i: number): 'A' | 'B' | undefined => (c.mixedAgents ? (['A', 'B', undefined] as const)[i % 3] : undefined)

function batchStory(c: BatchCase): string[] {
  const signal = c.abortedBefore
    ? 'its signal already aborted when runBatch is called'
    : c.abortAfter !== undefined
      ? `its signal aborts as body ${c.abortAfter + 1} starts`
      : c.withSignal ? 'with a signal that never aborts' : 'without a signal'
  const waits = (awaits: number) => (awaits === 0 ? 'never awaits' : `awaits ${times(awaits)}`)
  const caller = (i: number) => (!c.mixedAgents ? '' : callerOf(c, i) ? ` (agent ${callerOf(c, i)})` : ' (global)')
  const kind = (safe: boolean, i: number) => (c.oneToolByArguments
    ? `tool either_tool, whose classifier reads its arguments: ${safe ? 'parallel-safe' : 'exclusive'} by them, a`
    : !safe ? 'an exclusive' : c.twoSafeTools && i % 2 ? 'a parallel-safe (second tool)' : 'a parallel-safe')
  return [
    ...(c.afterAnotherBatch
      ? [`first a batch of one parallel-safe call that never awaits, maxParallel ${c.maxParallel + 2}, run to its end on the same signal`]
      : []),
    `a batch of ${c.calls.length} call(s), maxParallel ${c.maxParallel}, ${signal}`,
    ...c.calls.map((call, i) => `call b${i}${caller(i)}: ${kind(call.safe, i)} body that ${waits(call.awaits)}`),
    ...(c.repeatsFirst ? [`the last call is b0's input object handed again, callId and all`] : []),
  ]
}

export default [
  judged(
    'MODE-1', 'executionMode is parallel when the visible tool\'s isConcurrencySafe(args) returns exactly true',
    scenario({ ...quiet, tools: safeTools, calls: { max: 3, agents: true, args: argumentsOften } })
      .chain(nowAndThen(withCallsBothWays)),
  ),

  withDirect(judged(
    'MODE-2',
    'everything but an exact true is exclusive — no classifier, a throw, 1, \'true\', {}, a Promise, a Boolean ' +
      'object, a non-function, invalid or unknown input — and executionMode never throws',
    scenario({
      ...quiet,
      tools: anyTools,
      calls: { max: 3, agents: true, unknownNames: true },
    }).chain(
      (s) => fc.constantFrom<CallSpec['malformed'] | undefined>(undefined, undefined, 'not-an-object', 'no-signal').map((malformed) => (
        malformed ? { ...s, calls: [...s.calls, { tool: s.calls[0]!.tool, args: {}, malformed }] } : s
      )),
    ).chain(nowAndThen(withBoxedTrue, 3)).chain(nowAndThen(hiddenButSafe)).chain(nowAndThen(shorthandTrue))
      .chain(nowAndThen(verdictObject)).chain(nowAndThen(shadowedWithoutClassifier)).chain(nowAndThen(safeForAOnly))
      .chain(nowAndThen(readsItsArgument)).chain(nowAndThen(classifiedAgain)),
  ), bothDirect(bothDirect(modeAfterLifecycle, unreadableInput), undescribableThrow), { everyLast: 3 }),

  custom(
    'MODE-3',
    'a batch never overlaps an exclusive body with any other, overlaps parallel calls up to the pool bound, returns ' +
      'results in call order, and gives unstarted calls ABORTED_BEFORE_DISPATCH after the batch aborts',
    batchCase,
    batchStory,
    async (ctx, c) => {
      const registry = await ctx.registry()
      if (!registry.runBatch) return ctx.fail('the adapter declares the batch profile but has no runBatch')
      let running = 0
      let runningExclusive = 0
      let started = 0
      const batchAbort = new AbortController()
      const pause = () => ctx.scheduler.schedule(Promise.resolve())
      const body = (safe: boolean) => async (args: JsonValue) => {
        started++
        running++
        if (!safe) runningExclusive++
        if (runningExclusive > 0 && running > 1) ctx.fail('an exclusive body overlapped another body')
        if (running > c.maxParallel) ctx.fail(`${running} bodies overlapped with maxParallel ${c.maxParallel}`)
        if (c.abortAfter !== undefined && started > c.abortAfter) batchAbort.abort()
        for (let i = 0; i < (args as { awaits: number }).awaits; i++) await pause()
        running--
        if (!safe) runningExclusive--
        return args
      }
      // What only a call that entered the pipeline meets: its finalizer, the observers (MODE-3: an unstarted call never does).
      const finalized: string[] = []
      const finalizeContent = (exec: ToolExecution) => void finalized.push(exec.callId)
      registry.register(liveTool('safe_tool', { isConcurrencySafe: () => true, execute: body(true), finalizeContent }))
      registry.register(liveTool('safe_tool_2', { isConcurrencySafe: () => true, execute: body(true), finalizeContent }))
      registry.register(liveTool('exclusive_tool', { execute: body(false), finalizeContent }))
      const byArguments = (args: JsonValue) => (args as { safe?: unknown }).safe === true
      registry.register(liveTool('either_tool', { isConcurrencySafe: byArguments, execute: (args) => body(byArguments(args))(args), finalizeContent }))
      registry.onResult((exec) => void finalized.push(exec.callId))
      const entered: string[] = []
      registry.onPreExecute(async (exec, next) => {
        if (batchAbort.signal.aborted) ctx.fail(`${exec.callId} started after the batch's signal aborted`)
        entered.push(exec.callId)
        return next()
      })
      const inputs: ToolExecutionInput[] = c.calls.map((call, i) => ({
        callId: `b${i}`,
        name: c.oneToolByArguments ? 'either_tool' : call.safe ? (c.twoSafeTools && i % 2 ? 'safe_tool_2' : 'safe_tool') : 'exclusive_tool',
        arguments: { index: i, awaits: call.awaits, ...(c.oneToolByArguments ? { safe: call.safe } : {}) },
        signal: new AbortController().signal,
        ...(callerOf(c, i) ? { agent: registry.agent(callerOf(c, i)!) } : {}),
      }))
      const last = inputs.length - 1
      if (c.repeatsFirst) inputs[last] = inputs[0]!
      // The input a result must answer: its own, b0's for the repeated one.
      const source = (i: number) => (c.repeatsFirst && i === last ? 0 : i)
      const signalled = c.abortAfter !== undefined || c.withSignal || c.abortedBefore
      if (c.afterAnotherBatch && signalled) {
        // A tool of its own: the first batch's body must not count towards this batch's abort.
        registry.register(liveTool('first_batch_tool', { isConcurrencySafe: () => true }))
        const before = { callId: 'first-batch', name: 'first_batch_tool', arguments: {}, signal: new AbortController().signal }
        // With a wider pool than this batch's: a pool kept from the first batch overlaps this one beyond its bound.
        await ctx.scheduler.waitFor(registry.runBatch([before], { maxParallel: c.maxParallel + 2, signal: batchAbort.signal }))
      }
      if (c.abortedBefore) batchAbort.abort()
      const results = await ctx.scheduler.waitFor(registry.runBatch(
        inputs,
        signalled ? { maxParallel: c.maxParallel, signal: batchAbort.signal } : { maxParallel: c.maxParallel },
      ))
      if (results.length !== inputs.length) return ctx.fail(`runBatch returned ${results.length} results for ${inputs.length} calls`)
      for (let i = 0; i < inputs.length; i++) {
        const result = results[i]
        if (typeof result !== 'object' || result === null || typeof result.isError !== 'boolean') {
          ctx.fail(`result ${i} is not an outcome`)
          continue
        }
        if (!result.isError && (result.value as { index?: unknown }).index !== source(i)) ctx.fail(`result ${i} is not the result of call ${i}`)
        // Both runs of b0 answer to one callId: what each met is told apart by the count, below.
        if (c.repeatsFirst && (i === 0 || i === last)) continue
        const code = codeOf(registry, result)
        const unstarted = !entered.includes(`b${i}`)
        if (unstarted && code !== 'ABORTED_BEFORE_DISPATCH') ctx.fail(`call ${i} never entered the pipeline but its result is not ABORTED_BEFORE_DISPATCH`)
        if (unstarted && finalized.includes(`b${i}`)) {
          ctx.fail(`call ${i} never reached pre-execute, yet its finalizer or an observer saw it: it entered the pipeline`)
        }
        if (!unstarted && code === 'ABORTED_BEFORE_DISPATCH' && entered.includes(`b${i}`)) {
          ctx.fail(`call ${i} entered the pipeline and was also marked ABORTED_BEFORE_DISPATCH`)
        }
      }
      if (c.repeatsFirst) {
        const started = [0, last].filter((i) => codeOf(registry, results[i]) !== 'ABORTED_BEFORE_DISPATCH').length
        const entries = entered.filter((id) => id === 'b0').length
        if (entries !== started) ctx.fail(`b0's input, handed twice, entered the pipeline ${entries} time(s) for ${started} started result(s)`)
      }
      if (c.abortAfter === undefined && !c.abortedBefore && results.some((r) => r.isError)) ctx.fail('a batch without an abort produced an error')
    },
    'batch',
  ),
]
