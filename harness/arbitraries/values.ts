/**
 * Value generators, biased toward the edges: plain JSON (never using the `$` key descriptors
 * reserve), and every kind of value JSON cannot hold, alone or buried inside JSON.
 */
import fc from 'fast-check'
import type { Tagged, ValueDesc } from '../scenario/types.js'

const key = fc.oneof(
  fc.constantFrom('a', 'n', 'text', '__proto__', 'constructor', 'toString', ''),
  fc.string({ maxLength: 6 }).filter((k) => k !== '$'),
)

/** Small plain JSON values (no -0, no non-finite numbers). */
export const jsonValue: fc.Arbitrary<ValueDesc> = fc.letrec<{ value: ValueDesc }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<ValueDesc>(null, true, false, 0, 1, -1, '', 'x', 1.5),
    fc.integer({ min: -1000, max: 1000 }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.string({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value

/** What JSON.stringify refuses or drops outright. */
const plainlyNotJson: Tagged['$'][] = ['bigint', 'cycle', 'function', 'symbol', 'undefined', 'nan', 'infinity']
/**
 * What passes a quick look: an object a tag or typeof check takes for plain (a class instance, a
 * Date, a Map, a Boolean object), -0, a hole, an accessor that throws. Drawn twice as often.
 */
const lookingLikeJson: Tagged['$'][] = ['negzero', 'sparse', 'map', 'date', 'instance', 'boolean-object', 'throwing-getter']
const leafTags: Tagged['$'][] = [...lookingLikeJson, ...plainlyNotJson, ...lookingLikeJson]
/** Each of the values that pass a quick look. */
export const LOOKALIKE_LEAVES: ValueDesc[] = lookingLikeJson.map((tag) => ({ $: tag }) as ValueDesc)

/** One value JSON cannot hold, as a tagged descriptor. */
export const unserialisable: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...leafTags).map((tag) => ({ $: tag }) as ValueDesc) },
  fc.constant<ValueDesc>({ $: 'promise', value: 1 }),
  fc.constant<ValueDesc>({ $: 'proxy', value: { a: { $: 'bigint' } } }),
)

/** A JSON value with one unserialisable value hidden at the top or inside. */
export const poisoned: fc.Arbitrary<ValueDesc> = fc.oneof(
  unserialisable,
  fc.tuple(unserialisable, key).map(([bad, k]) => ({ [k === '$' ? 'k' : k]: bad })),
  unserialisable.map((bad) => [1, bad]),
  fc.tuple(unserialisable, key).map(([bad, k]) => ({ outer: { [k === '$' ? 'k' : k]: bad } })),
)

/** Lossless values that are still tricky to read: getters and proxies over plain JSON. */
export const trickyLossless: fc.Arbitrary<ValueDesc> = fc.oneof(
  jsonValue.map((value) => ({ $: 'getter', value }) as ValueDesc),
  fc.dictionary(key, jsonValue, { maxKeys: 2 }).map((value) => ({ $: 'proxy', value }) as ValueDesc),
)

/** Any value: mostly lossless, often not. */
export const anyValue: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 3, arbitrary: jsonValue },
  { weight: 2, arbitrary: poisoned },
  { weight: 1, arbitrary: trickyLossless },
)

export const textBlock = fc.string({ maxLength: 8 }).map((text) => ({ type: 'text', text }) as ValueDesc)

/** Content: valid blocks, malformed blocks, or blocks carrying unserialisable values. */
export const contentDesc: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 3, arbitrary: fc.array(textBlock, { minLength: 1, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.constant<ValueDesc>([{ type: 'image', mimeType: 'image/png', data: 'AA==' }]) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>([{ type: 'text' }], [{ type: 'video' }], 'text', [null], {}) },
  { weight: 2, arbitrary: unserialisable.map((bad) => [{ type: 'text', text: 'x', extra: bad }] as ValueDesc) },
)

/** A user message for deferContext / additionalContexts, sometimes not one. */
export const contextDesc: fc.Arbitrary<ValueDesc> = fc.oneof(
  // No blocks is a user message too: a registry passes it on as it was deferred.
  { weight: 3, arbitrary: fc.array(textBlock, { maxLength: 2 }).map((content) => ({ role: 'user', content }) as ValueDesc) },
  { weight: 1, arbitrary: unserialisable.map((bad) => ({ role: 'user', content: [{ type: 'text', text: 'x' }], extra: bad }) as ValueDesc) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>({ role: 'assistant', content: [] }, 'hello') },
)
