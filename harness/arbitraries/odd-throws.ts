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

/** In one case of `every`, drawn last: what throws throws an odd value (`hardest`: one `String()` throws on). */
export const withOddThrows = (every = 4, hardest = false) =>
  nowAndThenWith(hardest ? undescribable : oddThrown, (s: Scenario, hooksThrow: ValueDesc): Scenario => ({ ...s, hooksThrow }), every)
