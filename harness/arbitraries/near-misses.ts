/**
 * Near misses of the words the contract reads exactly (decision kinds, the granting approval
 * outcome): the word in another case, padded, boxed, cut at its hyphen or short of its last letter,
 * run on. None is the word; a registry that reads a word loosely (case-blind, trimmed, through
 * valueOf(), by prefix) takes it for the word.
 */
import fc from 'fast-check'
import type { ValueDesc } from '../scenario/types.js'

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

export const nearMisses = (word: string): ValueDesc[] => [
  capitalised(word),
  word.toUpperCase(),
  ` ${word}`,
  `${word} `,
  { $: 'boxed', value: word },
  word.includes('-') ? word.slice(0, word.indexOf('-')) : word.slice(0, -1),
  `${word}-always`,
]

export const nearMiss = (word: string): fc.Arbitrary<ValueDesc> => fc.constantFrom(...nearMisses(word))

/** The shape with the word at `key` (its `kind` unless given) replaced by a near miss. */
export const nearMissOf = (shape: { [key: string]: ValueDesc }, key = 'kind'): fc.Arbitrary<ValueDesc> =>
  nearMiss(String(shape[key])).map((word) => ({ ...shape, [key]: word }))
