/**
 * Whatever throws or rejects but a body (a hook, the approval service, a classifier, a projection, a
 * finalizer) throwing an odd value: a Symbol, null, undefined, an object with no prototype, a
 * string. An outcome is no Error's message: describing the value must not throw (IN-4, FIN-4).
 */
import fc from 'fast-check'
import type { Scenario, ValueDesc } from '../scenario/types.js'
import { nowAndThenWith } from './now-and-then.js'

const oddThrown = fc.constantFrom<ValueDesc>({ $: 'symbol' }, null, { $: 'undefined' }, { $: 'bare' }, 'a string')
/** What a template literal cannot describe, `String()` neither two times in three (no prototype). */
const undescribable = fc.constantFrom<ValueDesc>({ $: 'bare' }, { $: 'bare' }, { $: 'symbol' })

/**
 * What a hook throws when the runtime throws for it: a TypeError (reading a field of undefined) or
 * a RangeError, an Error all the same; a registry that reads one as "not for me" skips a hook.
 */
export const builtInThrown = fc.constantFrom<ValueDesc>({ $: 'error', name: 'TypeError' }, { $: 'error', name: 'RangeError' })

/** The case with what throws throwing `thrown`, unless it throws an odd value already. */
export const withBuiltInThrows = (s: Scenario, thrown: ValueDesc): Scenario => (s.hooksThrow === undefined ? { ...s, hooksThrow: thrown } : s)

/** In one case of `every`, drawn last: what throws throws an odd value (`hardest`: one `String()` throws on). */
export const withOddThrows = (every = 4, hardest = false) =>
  nowAndThenWith(hardest ? undescribable : oddThrown, (s: Scenario, hooksThrow: ValueDesc): Scenario => ({ ...s, hooksThrow }), every)
