/**
 * Behaviours of listeners, guards, wrappers, observers and the approval service: well-formed and
 * malformed decisions, throws and rejections, answers now or after a scheduler point.
 */
import fc from 'fast-check'
import type { ApprovalSpec, DecisionSpec, GuardSpec, ObserverSpec, PostSpec, PreSpec, Timing, ValueDesc, WrapperSpec } from '../scenario/types.js'
import { contentDesc, contextDesc, jsonValue, unserialisable } from './values.js'
import { invalidOutput, validOutput } from './outputs.js'
import { isLosslessDesc } from '../scenario/values.js'
import { nearMiss, nearMissOf } from './near-misses.js'
import { guardAttack, observerAttack, postAttack, preAttack, requestAttack, withAttack, wrapperAttack } from './attacks.js'

export const timing: fc.Arbitrary<Timing> = fc.constantFrom('sync', 'await')
/** Mostly global, sometimes scoped to an agent: a scoped hook only meets calls from its agent. */
export const scope = fc.oneof(
  { weight: 3, arbitrary: fc.constant<'A' | 'B' | undefined>(undefined) },
  { weight: 1, arbitrary: fc.constantFrom<'A' | 'B' | undefined>('A', 'B') },
)

/** The three well-formed pre-execute decisions. */
export const wellFormedPre: fc.Arbitrary<ValueDesc> = fc.oneof(
  fc.constant<ValueDesc>({ kind: 'allow' }),
  fc.string({ maxLength: 6 }).map((reason) => ({ kind: 'deny', reason }) as ValueDesc),
  fc.constant<ValueDesc>({ kind: 'ask' }),
  fc.string({ maxLength: 6 }).map((reason) => ({ kind: 'ask', reason }) as ValueDesc),
)

/**
 * Decisions whose kind (or reason) is a boxed string, `new String('allow')`: equal to a shape's
 * loosely, never exactly; a registry that reads the kind through `valueOf()` or `==` lets them by.
 */
export const boxedPre: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>(
  { kind: { $: 'boxed', value: 'allow' } },
  { kind: { $: 'boxed', value: 'allow' }, reason: 'boxed' },
  { kind: 'ask', reason: { $: 'boxed', value: 'why' } },
)

/** Anything that is not exactly one of the three shapes (PRE-3). */
export const malformedPre: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 1, arbitrary: boxedPre },
  // Falsy answers that are not a decision: a registry reading the answer as a boolean lets them by.
  { weight: 2, arbitrary: fc.constantFrom<ValueDesc>(null, { $: 'undefined' }, 0, '', false) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<ValueDesc>(
      { kind: 'deny' },
      { kind: 'deny', reason: 1 },
      { kind: 'permit' },
      'allow',
      true,
      null,
      { $: 'undefined' },
      [],
      { kind: { $: 'throwing-getter' } },
      { kind: 'ask', reason: 7 },
      { $: 'boolean-object' },
    ),
  },
  { weight: 2, arbitrary: unserialisable },
  // A kind nearly 'allow' or 'ask': a registry reading it loosely lets the call by or forwards it for approval.
  { weight: 1, arbitrary: fc.oneof(nearMissOf({ kind: 'allow' }), nearMissOf({ kind: 'ask' }), nearMissOf({ kind: 'ask', reason: 'why' })) },
)

export const preDecision = (weights = { malformed: 2, failing: 1 }): fc.Arbitrary<DecisionSpec> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<DecisionSpec>({ kind: 'delegate' }) },
    { weight: 1, arbitrary: fc.constant<DecisionSpec>({ kind: 'delegate-twice' }) },
    { weight: 4, arbitrary: wellFormedPre.map((value) => ({ kind: 'returns', value }) as DecisionSpec) },
    { weight: weights.malformed, arbitrary: malformedPre.map((value) => ({ kind: 'returns', value }) as DecisionSpec) },
    { weight: weights.failing, arbitrary: fc.constantFrom<DecisionSpec>({ kind: 'throws' }, { kind: 'rejects' }) },
  )

export const preListener = (decision = preDecision()): fc.Arbitrary<PreSpec> =>
  fc.record({ scope, timing, decision, tamper: fc.boolean(), attack: preAttack }, { requiredKeys: ['timing', 'decision'] }).map(withAttack)

/** The one granting answer boxed (`new String('allowed-once')`): equal to it loosely, never exactly. */
export const boxedGrant: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>(
  { $: 'boxed', value: 'allowed-once' },
  { $: 'promise', value: { $: 'boxed', value: 'allowed-once' } },
)

export const approvalOutcome: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<ValueDesc>('allowed-once', 'rejected', 'cancelled', 'unavailable') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<ValueDesc>(
      'yes', true, 1, 0, '', null, { $: 'undefined' }, { $: 'nan' }, {}, {
        outcome: 'allowed-once',
      }, ['allowed-once'],
      { $: 'promise', value: 'allowed-once' }, { $: 'boolean-object' },
    ),
  },
  { weight: 1, arbitrary: boxedGrant },
  { weight: 1, arbitrary: nearMiss('allowed-once') },
)

export const approval: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('returns' as const),
      timing,
      value: approvalOutcome,
      attack: requestAttack,
    }).map((a) => withAttack<ApprovalSpec>(a)),
  },
  { weight: 1, arbitrary: fc.constantFrom<ApprovalSpec>({ kind: 'throws' }, { kind: 'rejects' }) },
)

export const guard: fc.Arbitrary<GuardSpec> = fc.record(
  {
    scope,
    verdict: fc.oneof(
      { weight: 4, arbitrary: fc.constant({ kind: 'pass' as const }) },
      { weight: 2, arbitrary: fc.string({ maxLength: 5 }).map((s) => ({ kind: 'returns' as const, value: s as ValueDesc })) },
      {
        weight: 3,
        arbitrary: fc.constantFrom<ValueDesc>(
          null,
          false,
          0,
          '',
          { $: 'promise', value: null },
          {},
          { $: 'undefined' },
        ).map((value) => ({ kind: 'returns' as const, value })),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'throws' as const }) },
    ),
    attack: guardAttack,
  },
  { requiredKeys: ['verdict'] },
).map((g) => withAttack<GuardSpec>(g))

const madeUpResult: fc.Arbitrary<ValueDesc> = fc.oneof(
  validOutput.map((o) => ({ isError: false, value: o.value, content: [] }) as ValueDesc),
  // Lossless values that fail most schemas: only validation against output.schema rejects them (EXE-4).
  invalidOutput.filter((o) => isLosslessDesc(o.value)).map((o) => ({ isError: false, value: o.value, content: [] }) as ValueDesc),
  fc.constantFrom<ValueDesc>({ isError: false, value: { $: 'bigint' }, content: [] }, { isError: false, value: { n: { $: 'nan' } }, content: [] }),
  fc.constant<ValueDesc>({ isError: true, error: { message: 'made up' }, content: [{ type: 'text', text: 'made up' }] }),
  fc.constantFrom<ValueDesc>(null, 'ok', { isError: 'no' }, { $: 'undefined' }),
)

export const wrapper: fc.Arbitrary<WrapperSpec> = fc.record(
  {
    scope,
    timing,
    action: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom<WrapperSpec['action']>({ kind: 'pass' }, { kind: 'replace-signal' }, { kind: 'next-twice' }) },
      { weight: 1, arbitrary: madeUpResult.map((result) => ({ kind: 'made-up', result }) as WrapperSpec['action']) },
      { weight: 1, arbitrary: fc.constantFrom<WrapperSpec['action']>({ kind: 'throws' }, { kind: 'rejects' }) },
    ),
    attack: wrapperAttack,
  },
  { requiredKeys: ['timing', 'action'] },
).map((w) => withAttack<WrapperSpec>(w))

const postValue: fc.Arbitrary<ValueDesc> = fc.oneof(
  fc.constant<ValueDesc>({ kind: 'accept' }),
  contentDesc.map((content) => ({ kind: 'accept', content }) as ValueDesc),
  validOutput.map((o) => ({ kind: 'accept', value: o.value }) as ValueDesc),
  jsonValue.map((value) => ({ kind: 'accept', value }) as ValueDesc),
  contentDesc.map((feedback) => ({ kind: 'block', feedback }) as ValueDesc),
  fc.constant<ValueDesc>({ kind: 'accept', value: 1, content: [{ type: 'text', text: 'both' }] }),
  contextDesc.map((context) => ({ kind: 'accept', additionalContexts: [context] }) as ValueDesc),
  fc.constantFrom<ValueDesc>({ kind: 'allow' }, { kind: 'block' }, null, 'accept', { $: 'undefined' }),
  // A kind nearly 'accept' or 'block': malformed, an error all the same (PST-3).
  fc.oneof(nearMissOf({ kind: 'accept' }), nearMissOf({ kind: 'block', feedback: [{ type: 'text', text: 'no' }] })),
)

export const postDecision: fc.Arbitrary<DecisionSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<DecisionSpec>({ kind: 'delegate' }, { kind: 'delegate-twice' }) },
  { weight: 4, arbitrary: postValue.map((value) => ({ kind: 'returns', value }) as DecisionSpec) },
  { weight: 1, arbitrary: fc.constantFrom<DecisionSpec>({ kind: 'throws' }, { kind: 'rejects' }) },
)

export const postListener: fc.Arbitrary<PostSpec> = fc
  .record({ scope, timing, decision: postDecision, attack: postAttack }, { requiredKeys: ['timing', 'decision'] })
  .map((p) => withAttack<PostSpec>(p))

export const observer: fc.Arbitrary<ObserverSpec> = fc
  .record({ scope, throws: fc.boolean(), attack: observerAttack }, { requiredKeys: ['throws'] })
  .map((o) => withAttack<ObserverSpec>(o))

/** A wrapper that makes up an error whose meta is not lossless JSON (META-1, META-2). */
export const madeUpNonLosslessMeta: fc.Arbitrary<WrapperSpec> = fc.record({
  timing,
  action: fc
    .constantFrom<ValueDesc>({ $: 'bigint' }, { n: { $: 'nan' } }, { $: 'cycle' }, { f: { $: 'function' } })
    .map((meta): WrapperSpec['action'] => ({ kind: 'made-up', result: { isError: true, error: { message: 'made up' }, content: [], meta } })),
})
