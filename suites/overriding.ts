/**
 * Direct checks for a waterfall whose outer listener awaits next() and then decides itself: an
 * inner malformed decision or an inner throw still ends the call (PRE-3, PRE-4, PST-3), whatever
 * the outer listener returns afterwards. Scenarios cannot express such a listener, so these
 * checks drive a registry directly; suites join them to their judged property (with-direct.ts).
 */
import fc from 'fast-check'
import { buildValue, malformedPre, times, valueWords, type ValueDesc } from '../harness/property/vocabulary.js'
import { codeOf, custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { RegistryUnderTest } from '../harness/contract/adapter.js'
import type { PreToolDecision, ToolExecution } from '../harness/contract/spec.js'

type Inner = { kind: 'returns'; value: ValueDesc } | { kind: 'throws' } | { kind: 'rejects' }

export interface OverrideCase {
  inner: Inner
  /** Delegating listeners between the outer listener and the inner one. */
  between: number
  /** Whether the outer listener sees the inner outcome after a scheduler point. */
  outerAwaits: boolean
  /** PRE-3: the same waterfall once more, on a registry of its own, its inner listener asking with a null reason. */
  thenNullReasonAsk?: boolean
  /** PRE-3: and, on a registry of its own, a lone listener denying through a `kind` getter that answers 'allow' when read again. */
  thenReadTwice?: boolean
  /** PRE-3: and, on a registry of its own, the inner listener allowing and the outer one answering nothing once next() settled. */
  thenOuterAnswersNothing?: boolean
  /** The outer listener returns nothing (undefined) after next(), instead of allowing: malformed, a denial. */
  outerAnswersNothing?: boolean
  /** No outer listener: the inner one decides the waterfall (a denial an outer listener allows after next() is an allow). */
  alone?: boolean
  /**
   * PRE-4: once next() settled, the outer listener starts a second call to target and waits until it
   * reaches the inner listener, which allows it: the first call's throw stays its own.
   */
  overlapping?: boolean
  /**
   * What a throwing or rejecting inner listener throws in place of an Error: a falsy value. A
   * registry that records the first failure as `error ??= thrown` or tests it for truth misses it.
   */
  thrown?: ValueDesc
}

// The last keys are drawn last, so a case's other keys are what they were before they were added.
type ClauseKeys = Pick<OverrideCase, 'thenNullReasonAsk' | 'thenReadTwice' | 'thenOuterAnswersNothing' | 'overlapping' | 'thrown'>
const overrideCase = (inner: fc.Arbitrary<Inner>, own: { [K in keyof ClauseKeys]?: fc.Arbitrary<ClauseKeys[K]> } = {}): fc.Arbitrary<OverrideCase> =>
  fc.record({ inner, between: fc.integer({ min: 0, max: 2 }), outerAwaits: fc.boolean(), ...own })
/** Mostly, a throwing inner listener throws a falsy value: most often undefined (`Promise.reject()`), else null, 0, '' or false. */
const falsyThrown = fc.option(
  fc.oneof({ weight: 3, arbitrary: fc.constant<ValueDesc>({ $: 'undefined' }) }, { weight: 2, arbitrary: fc.constantFrom<ValueDesc>(null, 0, '', false) }),
  { nil: undefined },
)
const CLAUSE_KEYS = {
  'PRE-3': { thenNullReasonAsk: fc.boolean(), thenReadTwice: fc.boolean(), thenOuterAnswersNothing: fc.boolean() },
  'PRE-4': { overlapping: fc.boolean(), thrown: falsyThrown },
}

const innerOutcome = (inner: Inner, thrown?: ValueDesc): unknown => {
  const error = () => (thrown === undefined ? new Error(`toolreg: inner listener ${inner.kind}`) : buildValue(thrown))
  if (inner.kind === 'throws') throw error()
  if (inner.kind === 'rejects') return Promise.reject(error())
  return buildValue(inner.value)
}

const innerWords = (inner: Inner, thrown?: ValueDesc) =>
  (inner.kind === 'returns' ? `answers ${valueWords(inner.value)}` : thrown === undefined ? inner.kind : `${inner.kind} ${valueWords(thrown)}`)

/** The waterfall, outermost first: the outer listener, the delegating ones, the inner one; then the call. */
function overrideStory(stage: 'pre-execute' | 'post-execute', outerDecides: string, c: OverrideCase): string[] {
  const pause = c.outerAwaits ? ', waits a scheduler point' : ''
  if (c.alone) return ['tool target', `${stage} #0 ${innerWords(c.inner, c.thrown)}`, 'one call to target']
  const second = c.overlapping ? ', starts a second call to target, waits until it reaches the last listener' : ''
  return [
    'tool target',
    `${stage} #0 awaits next(), swallows what it got${second}${pause} and ${outerDecides}`,
    ...Array.from({ length: c.between }, (_, i) => `${stage} #${i + 1} delegates`),
    `${stage} #${c.between + 1} ${innerWords(c.inner, c.thrown)}${c.overlapping ? ' (for the second call, allows)' : ''}`,
    'one call to target',
  ]
}

/** Malformed for PST-3: content of the wrong shape but lossless is OUT-5's (S), so it is not here. */
const malformedPost: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>(
  { kind: 'allow' }, { kind: 'block' }, null, 'accept', { $: 'undefined' }, {
    kind: 'accept',
    value: 1,
    content: [{ type: 'text', text: 'both' }],
  }, { kind: 'accept', content: { $: 'bigint' } },
)

/**
 * An ask whose reason is null, neither absent nor a string: malformed. A second waterfall, not a
 * value among the first one's inner answers: those keep their share of the draws, with which the
 * direct case finds pre-boxed-kind-allows on some seeds. (fast-check's later cases draw from where
 * this one left off, so every PRE-3 row was measured again: fixtures/mutants/README.md.)
 */
const nullReasonAsk: Inner = { kind: 'returns', value: { kind: 'ask', reason: null } }
/**
 * A denial whose `kind` is a getter answering 'deny' on its first read and 'allow' after it, from a
 * lone listener. Read once it is a denial, and judged malformed it is one too: a body runs only for
 * a registry that checked one read and acted on another (the listener's own object handed on).
 */
const readTwiceDeny: Inner = { kind: 'returns', value: { kind: { $: 'shifting-getter', reads: ['deny', 'allow'] }, reason: 'read twice' } }

const plainDeny: Inner = { kind: 'returns', value: { kind: 'deny', reason: 'plain' } }
const plainAllow: Inner = { kind: 'returns', value: { kind: 'allow' } }

/** Whether the body runs on a registry of its own whose lone listener answers `inner`. */
async function bodyRunsDespite(ctx: CustomContext, inner: Inner): Promise<boolean> {
  const registry = await ctx.registry()
  let bodyRan = false
  registry.register(liveTool('target', { execute: async () => ((bodyRan = true), { ok: true }) }))
  registry.onPreExecute(() => innerOutcome(inner) as never)
  await ctx.scheduler.waitFor(registry.execute(input('target')))
  return bodyRan
}

/** A pre-execute waterfall: the outer listener allows whatever it got from next(). */
function preOverride(id: 'PRE-3' | 'PRE-4', rule: string, inner: fc.Arbitrary<Inner>) {
  const waterfalls = (c: OverrideCase): OverrideCase[] => [
    c,
    ...(c.thenNullReasonAsk ? [{ ...c, inner: nullReasonAsk }] : []),
    ...(c.thenReadTwice ? [{ ...c, inner: readTwiceDeny, between: 0, alone: true }] : []),
    ...(c.thenOuterAnswersNothing ? [{ ...c, inner: plainAllow, outerAnswersNothing: true }] : []),
  ]
  return custom(
    id, rule,
    overrideCase(inner, CLAUSE_KEYS[id]),
    (c) => waterfalls(c).flatMap((w, i) => [
      ...(i > 0 ? ['then, on a new registry:'] : []),
      ...overrideStory('pre-execute', w.outerAnswersNothing ? 'returns nothing (undefined)' : 'allows', w),
    ]),
    async (ctx, c) => {
      for (const w of waterfalls(c)) {
        // A registry that lets a lone plain denial through breaks PRE-2 first: the read-twice case judges nothing there.
        if (w.alone && (await bodyRunsDespite(ctx, plainDeny))) continue
        const registry = await ctx.registry()
        let bodyRan = false
        let outerEntered = false
        const overlap = w.overlapping ? secondCall(ctx, registry) : undefined
        registry.register(liveTool('target', { execute: async (_args: unknown, run: ToolExecution) => ((bodyRan ||= run.callId !== SECOND), { ok: true }) }))
        if (!w.alone) registry.onPreExecute(async (exec, next) => {
          outerEntered = true
          try {
            await next()
          } catch {
            // the outer listener swallows what it got and allows anyway
          }
          if (exec.callId !== SECOND) await overlap?.start()
          if (w.outerAwaits) await ctx.scheduler.schedule(Promise.resolve())
          // Returning nothing is what a listener that forgot its `return` does: a malformed decision.
          return (w.outerAnswersNothing ? undefined : { kind: 'allow' }) as PreToolDecision
        })
        for (let i = 0; i < w.between; i++) registry.onPreExecute((_exec, next) => next())
        registry.onPreExecute((exec) => (exec.callId === SECOND ? overlap?.reached() : innerOutcome(w.inner, w.thrown)) as never)
        const result = await ctx.scheduler.waitFor(registry.execute(input('target')))
        await overlap?.settled()
        const allowed = w.alone ? 'no listener allowed' : 'only an outer listener allowed'
        // An outer listener never entered (listeners run out of order) answered nothing to nobody: PRE-1's case, not this one.
        if (w.outerAnswersNothing && !outerEntered) continue
        if (bodyRan && w.outerAnswersNothing) ctx.fail('the body ran although the outer listener answered nothing once next() settled')
        else if (bodyRan) ctx.fail(`the body ran although the inner listener ${innerWords(w.inner, w.thrown)} and ${allowed}`)
        if (!result.isError) ctx.fail(`the outcome is a success (${codeOf(registry, result) ?? 'no code'})`)
      }
    },
  )
}

const SECOND = 'x-second'

/**
 * A second call to target, started while the first call's outer listener waits: `start` resolves
 * once it reached the inner listener (or after a few scheduler points, for a registry that holds it
 * back), `reached` is that listener's allow, and `settled` waits for the call to end.
 */
function secondCall(ctx: CustomContext, registry: RegistryUnderTest) {
  let pending: Promise<unknown> | undefined
  let arrive = () => {}
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  const pauses = async () => {
    for (let i = 0; i < 3; i++) await ctx.scheduler.schedule(Promise.resolve())
  }
  return {
    start: () => {
      pending = registry.execute(input('target', {}, { callId: SECOND }))
      return Promise.race([arrived, pauses()])
    },
    reached: () => (arrive(), { kind: 'allow' }),
    settled: () => (pending ? ctx.scheduler.waitFor(pending) : undefined),
  }
}

/** A post-execute waterfall: the outer listener accepts whatever it got from next(). */
function postOverride(rule: string) {
  return custom(
    'PST-3', rule,
    overrideCase(
      fc.oneof(malformedPost.map((value): Inner => ({ kind: 'returns', value })), fc.constantFrom<Inner>({ kind: 'throws' }, { kind: 'rejects' })),
      { thrown: falsyThrown },
    ),
    (c) => overrideStory('post-execute', 'accepts', c),
    async (ctx, c) => {
      const registry = await ctx.registry()
      registry.register(liveTool('target'))
      registry.onPostExecute(async (_exec, _result, next) => {
        try {
          await next()
        } catch {
          // the outer listener swallows what it got and accepts anyway
        }
        if (c.outerAwaits) await ctx.scheduler.schedule(Promise.resolve())
        return { kind: 'accept' }
      })
      for (let i = 0; i < c.between; i++) registry.onPostExecute((_exec, _result, next) => next())
      registry.onPostExecute(() => innerOutcome(c.inner, c.thrown) as never)
      const result = await ctx.scheduler.waitFor(registry.execute(input('target')))
      if (!result.isError) ctx.fail(
        `the outcome is a success although an inner post-execute listener ${c.inner.kind === 'returns' ? 'returned a malformed decision' : c.inner.kind}`,
      )
    },
  )
}

export const preMalformedOverridden = preOverride(
  'PRE-3',
  'an inner malformed decision stays a denial when an outer listener allows after next()',
  malformedPre.map((value): Inner => ({ kind: 'returns', value })),
)
export const preThrowOverridden = preOverride(
  'PRE-4',
  'an inner throw ends the call when an outer listener allows after next()',
  fc.constantFrom<Inner>({ kind: 'throws' }, { kind: 'rejects' }),
)
export const postOverridden = postOverride('a malformed or throwing inner post-execute listener ends in error when an outer listener accepts after next()')

/** An outer listener decides without awaiting the next() it called: the inner listener is still awaited (PRE-6). */
export const preUnawaitedNext = custom(
  'PRE-6', 'a listener started by next() is awaited even when the outer listener decided without awaiting it',
  fc.record({
    pauses: fc.integer({ min: 1, max: 3 }),
    outer: fc.constantFrom('allow', 'deny'),
  }),
  (c) => [
    'tool target',
    `pre-execute #0 calls next() without awaiting it and answers ${c.outer} at once`,
    `pre-execute #1 waits at a scheduler point ${times(c.pauses)}, then allows`,
    'one call to target',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    let innerSettled = false
    registry.register(liveTool('target'))
    registry.onPreExecute((_exec, next) => {
      void next().catch(() => undefined)
      return Promise.resolve(c.outer === 'allow' ? { kind: 'allow' } : { kind: 'deny', reason: 'outer' })
    })
    registry.onPreExecute(async () => {
      for (let i = 0; i < c.pauses; i++) await ctx.scheduler.schedule(Promise.resolve())
      innerSettled = true
      return { kind: 'allow' }
    })
    await ctx.scheduler.waitFor(registry.execute(input('target')))
    if (!innerSettled) ctx.fail('execute settled while a pre-execute listener it had started was still pending')
  },
)
