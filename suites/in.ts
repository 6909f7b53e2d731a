/** IN: materializing the call. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  approval,
  argumentsObjectChanged,
  callArguments,
  defaults,
  guard,
  isPlainDesc,
  jsonValue,
  nowAndThen,
  nowAndThenWith,
  observer,
  LOOKALIKE_LEAVES,
  poisoned,
  postListener,
  preDecision,
  preListener,
  protoKeyedArguments,
  quiet,
  scenario,
  thrown,
  timing,
  tool,
  valueWords,
  withNested,
  wrapper,
  type ApprovalSpec,
  type CallSpec,
  type DecisionSpec,
  type GuardSpec,
  type PostSpec,
  type Scenario,
  type Timing,
  type ToolSpec,
  type ValueDesc,
  type WrapperSpec,
  withOddThrows,
} from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { alongside, withDirect } from './with-direct.js'
import { undefinedMembers } from './in-undefined-members.js'
import { checkShifting, shiftingCase, shiftingStory, type ShiftingCase } from './in-snapshot-once.js'
import type { ToolExecution } from '../harness/contract/spec.js'

const wellTypedArgs = fc.oneof(
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('path', 'n'), jsonValue, { maxKeys: 2 }) as fc.Arbitrary<ValueDesc> },
  { weight: 1, arbitrary: poisoned },
)

const tampering = fc.array(preListener(preDecision({ malformed: 0, failing: 0 })).map((p) => ({ ...p, tamper: true })), { minLength: 1, maxLength: 3 })

/** Hooks that lean toward failing — throwing, rejecting, malformed — at every stage IN-4 lists. */
const failingPost: fc.Arbitrary<PostSpec> = fc.oneof(
  postListener,
  fc.record({
    timing,
    decision: fc.constantFrom<DecisionSpec>(
      { kind: 'throws' },
      { kind: 'rejects' },
      { kind: 'returns', value: null },
      { kind: 'returns', value: { kind: 'block' } },
      { kind: 'returns', value: { kind: 'accept', value: 1, content: [] } },
    ),
  }),
)
const failingWrapper: fc.Arbitrary<WrapperSpec> = fc.oneof(
  wrapper,
  fc.record({
    timing,
    action: fc.constantFrom<WrapperSpec['action']>(
      { kind: 'throws' },
      { kind: 'rejects' },
      { kind: 'made-up', result: null },
      { kind: 'made-up', result: { isError: 'no' } },
    ),
  }),
)
/** What a body throws, null and undefined often: a registry reading `.message` of what was thrown fails on them. */
const thrownOften = fc.oneof(thrown, fc.constantFrom<ValueDesc>(null, { $: 'undefined' }))

const failingEverywhere = {
  // A third of the tools fail in their finalizer, a third in their body (with any thrown value, Errors or not).
  tools: fc.uniqueArray(fc.tuple(tool(), fc.nat(2), thrownOften, fc.boolean()).map(([t, where, error, sync]): ToolSpec =>
    where === 0 ? t : where === 1 ? { ...t, finalize: { kind: 'throws' } } : {
      ...t,
      body: { ...t.body, outcome: { kind: sync ? 'throw' : 'reject', thrown: error } },
    },
  ), { minLength: 1, maxLength: 2, selector: (t) => t.name }),
  pre: fc.array(preListener(preDecision({ malformed: 3, failing: 3 })), { maxLength: 2 }),
  guards: fc.array(fc.oneof(guard, fc.constant<GuardSpec>({ verdict: { kind: 'throws' } })), { maxLength: 2 }),
  wrappers: fc.array(failingWrapper, { maxLength: 2 }),
  post: fc.array(failingPost, { maxLength: 2 }),
  observers: fc.array(observer, { maxLength: 2 }),
  approval: fc.option(fc.oneof(approval, fc.constantFrom<ApprovalSpec>({ kind: 'throws' }, { kind: 'rejects' })), { nil: undefined, freq: 2 }),
}

const sameCase = fc.record({
  agent: fc.option(fc.constantFrom<'A' | 'B'>('A', 'B'), { nil: undefined }),
  args: fc.dictionary(fc.constantFrom('path', 'n'), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxKeys: 2 }),
})
type SameCase = typeof sameCase extends fc.Arbitrary<infer C> ? C : never
const isShifting = (c: SameCase | ShiftingCase): c is ShiftingCase => 'define' in c

/**
 * What each stage is handed is the caller's call: its callId, name and agent (by identity, as
 * `agent()` promises) and the arguments snapshot — checked on every stage and the body's context;
 * or, in four cases of five, arguments whose getter shifts between reads (in-snapshot-once.ts).
 */
const sameExecution = custom(
  'IN-1', 'every stage and the body see the caller\'s callId, name, agent and one frozen snapshot of its arguments',
  fc.oneof<[fc.WeightedArbitrary<SameCase | ShiftingCase>, fc.WeightedArbitrary<SameCase | ShiftingCase>]>(
    { weight: 1, arbitrary: sameCase },
    { weight: 4, arbitrary: shiftingCase },
  ),
  (c) => isShifting(c) ? shiftingStory(c) : [
    'tool probe, with a finalizer; a pre-execute listener, guard, wrapper, post-execute listener and observer, each watching',
    `one call: probe(${valueWords(c.args)})${c.agent === undefined ? ' with no agent' : ` as agent ${c.agent}`}`,
  ],
  async (ctx, c) => {
    if (isShifting(c)) return checkShifting(ctx, c)
    const registry = await ctx.registry()
    const agent = c.agent === undefined ? undefined : registry.agent(c.agent)
    const check = (stage: string, exec: { callId?: unknown; name?: unknown; agent?: unknown; arguments?: unknown }) => {
      if (exec.callId !== 'x-probe' || exec.name !== 'probe') ctx.fail(`${stage} saw callId ${String(exec.callId)} and name ${String(exec.name)}`)
      const expected = c.agent === undefined ? 'absent' : `the key of ${c.agent}`
      if (exec.agent !== agent) ctx.fail(`${stage} saw agent ${exec.agent === undefined ? 'absent' : 'another key'}, expected ${expected}`)
      if (JSON.stringify(exec.arguments) !== JSON.stringify(c.args)) ctx.fail(`${stage} saw arguments ${JSON.stringify(exec.arguments)}`)
    }
    registry.register(liveTool('probe', {
      execute: (async (_args: unknown, exec: ToolExecution) => (check('the body\'s context', exec), { ok: true })) as never,
      finalizeContent: (exec: ToolExecution) => void check('finalizeContent', exec),
    }))
    registry.onPreExecute((exec, next) => (check('pre-execute', exec), next()))
    registry.guard((exec) => void check('a guard', exec))
    registry.onExecute((exec, next) => (check('tools/execute', exec), next()))
    registry.onPostExecute((exec, _result, next) => (check('post-execute', exec), next()))
    registry.onResult((exec) => void check('tools/result', exec))
    const result = await registry.execute(input('probe', c.args, agent === undefined ? {} : { agent }))
    if (result.isError) ctx.fail('the probe call failed')
  },
)

/** In a quarter of IN-2's cases the first call carries no arguments at all (undefined): drawn last. */
const withoutArguments = (s: Scenario): Scenario => ({ ...s, calls: s.calls.map((c, i) => (i === 0 ? { ...c, args: { $: 'undefined' } } : c)) })
/**
 * In a quarter of IN-2's cases more, the first call's arguments hold a sparse array of valid values
 * under a key of their own: the hole is no JSON, though every value in the array is. Drawn last.
 */
const withSparseArguments = (s: Scenario): Scenario =>
  ({ ...s, calls: s.calls.map((c, i) => (i === 0 ? { ...c, args: { ids: { $: 'sparse', of: 1 } } } : c)) })
/**
 * In a quarter of IN-2's cases more, the first call is made again once for each value that passes a
 * quick look (-0, which JSON writes as 0, a class instance, a Date, a Map, a Boolean object, a hole,
 * an accessor that throws), its arguments holding that one value deep inside valid JSON. Drawn last.
 */
const withLookalikesDeep = (s: Scenario): Scenario => {
  const first = s.calls[0]
  if (!first) return s
  const again = LOOKALIKE_LEAVES.map((leaf) => ({ ...first, args: { path: 'notes.txt', range: { from: leaf, to: 4 } } }))
  return { ...s, calls: [first, ...again, ...s.calls.slice(1)] }
}

/**
 * In a quarter of IN-3's cases an outermost wrapper hands next() a signal of its own: the body's run
 * context is then built anew, and must keep the call's token. Drawn last, so the rest of a case is
 * what it was before.
 */
const withSignalReplaced = (s: Scenario, t: Timing): Scenario =>
  ({ ...s, wrappers: [{ timing: t, action: { kind: 'replace-signal' } }, ...s.wrappers] })
/** In a quarter of IN-3's cases every call's input carries a token of the caller's own, which no stage may see. Drawn last. */
const withCallerTokens = (s: Scenario): Scenario => ({ ...s, calls: s.calls.map((c) => ({ ...c, callerToken: true as const })) })

/**
 * In half of IN-1's scenario cases the caller changes its arguments object once execute is called, in
 * two of three after freezing its top level (the first call's arguments then also hold a nested object):
 * the body and the projections see the snapshot taken at entry, never the caller's object. Drawn last.
 */
const callerChanges = fc.constantFrom<NonNullable<CallSpec['callerChangesArgs']>>('live', 'shallow-frozen', 'shallow-frozen')
/**
 * In a quarter of IN-1's scenario cases an outermost wrapper replaces the signal and hands next()
 * arguments, a name, a callId, an agent and a token of its own besides: none may reach the body
 * (EXE-2: only the signal). Drawn last.
 */
const withWrapperHandingMore = (s: Scenario): Scenario =>
  ({ ...s, wrappers: [{ timing: 'sync', action: { kind: 'replace-signal' } }, ...s.wrappers], overridesMore: true })

/** The arguments with a nested object beside their own keys (a fresh object when they are not one). */
const withNestedObject = (args: ValueDesc): ValueDesc => {
  const own: { [k: string]: ValueDesc } = isPlainDesc(args) ? args : { path: 'p' }
  return { ...own, opts: { depth: 1 } }
}
const withCallerChanges = (s: Scenario, how: NonNullable<CallSpec['callerChangesArgs']>): Scenario => {
  const first = s.calls[0]?.tool
  const succeeding = { steps: [], outcome: { kind: 'return', value: 1 } } satisfies ToolSpec['body']
  return {
    ...s,
    // No listener or wrapper that might end the call, and the first call's tool succeeds: its body and its
    // projections are where the arguments are compared.
    pre: [],
    wrappers: s.wrappers.filter((w) => w.action.kind === 'pass' || w.action.kind === 'replace-signal'),
    tools: s.tools.map((t) => (t.name === first ? { ...t, body: succeeding, outputSchema: ANY_SCHEMA } : t)),
    calls: s.calls.map((c, i) => ({ ...c, callerChangesArgs: how, ...(i === 0 ? { args: withNestedObject(c.args) } : {}) })),
  }
}

/** In a quarter of IN-4's cases the first tool's finalizer throws as it is called, the last stage to fail. Drawn last. */
const firstFinalizerThrows = (s: Scenario): Scenario =>
  ({ ...s, tools: s.tools.map((t, i): ToolSpec => (i === 0 ? { ...t, finalize: { kind: 'throws' } } : t)) })

export default [
  withDirect(judged(
    'IN-1', 'every stage and the body see one frozen snapshot of the arguments, and no stage can change what runs',
    scenario({
      ...quiet,
      pre: tampering,
      wrappers: fc.array(wrapper, { maxLength: 2 }),
      calls: { max: 2, args: fc.oneof(callArguments, protoKeyedArguments) },
    })
      .chain(nowAndThenWith(callerChanges, withCallerChanges, 2))
      .chain(nowAndThen(withWrapperHandingMore))
      .chain(nowAndThen(argumentsObjectChanged)),
  ), sameExecution, { scenario: 3, direct: 2 }),

  alongside(judged(
    'IN-2', 'arguments that are not lossless JSON end the call before any listener, approval, guard, wrapper or body runs',
    scenario({
      pre: defaults.pre,
      guards: defaults.guards,
      wrappers: defaults.wrappers,
      calls: { args: poisoned, max: 2 },
    }).chain(nowAndThen(withoutArguments)).chain(nowAndThen(withSparseArguments)).chain(nowAndThen(withLookalikesDeep)),
  ), undefinedMembers, { where: ['a nested key', 'an array item', 'a top-level key'] }),

  judged(
    'IN-3', 'each execution gets a fresh token — a nested one too — and every stage of one call sees the same token',
    scenario({ tools: fc.oneof(defaults.tools, { weight: 3, arbitrary: withNested(tool()) }), calls: { max: 3, agents: true } })
      .chain(nowAndThenWith(timing, withSignalReplaced)).chain(nowAndThen(withCallerTokens)),
  ),

  judged(
    'IN-4', 'execute never rejects for a well-typed input: failures at every stage and unknown tools are error outcomes',
    // Whatever fails throwing a Symbol or an object with no prototype in half the cases.
    scenario({ ...failingEverywhere, calls: { max: 2, unknownNames: true, abortAtEntry: 10, abortScheduled: 20, args: wellTypedArgs } })
      .chain(withOddThrows(2, true)).chain(nowAndThen(firstFinalizerThrows)),
  ),

  judged(
    'IN-5', 'an ill-typed input (not an object, a callId that is not a string, no AbortSignal) resolves with an error outcome',
    scenario({ ...quiet, calls: { max: 2, args: wellTypedArgs } }).chain((s) =>
      fc.constantFrom<NonNullable<CallSpec['malformed']>>('not-an-object', 'no-signal', 'callId-not-a-string').map((malformed) => ({
        ...s,
        calls: [{ tool: s.calls[0]!.tool, args: {}, malformed }, ...s.calls],
      })),
    ),
  ),
]
