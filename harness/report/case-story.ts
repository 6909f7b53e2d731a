/**
 * What a failing case is told as, in every report: the story its property told (saved with the
 * counterexample), else a scenario's story, else the case key by key in words — never raw JSON.
 */
import { valueWords } from '../safe/value-text.js'
import { scenarioStory } from '../scenario/story.js'
import type { Scenario } from '../scenario/types.js'

/** A saved case that has a scenario's shape (a file from an older toolreg carries no story). */
export const looksLikeScenario = (testCase: unknown): boolean =>
  typeof testCase === 'object' && testCase !== null && 'version' in testCase && 'calls' in testCase

/** The case in words, a line per top-level key (what a case without a story is told as). */
export function caseInWords(testCase: unknown): string[] {
  if (typeof testCase !== 'object' || testCase === null || Array.isArray(testCase)) return [valueWords(testCase)]
  const entries = Object.entries(testCase)
  return entries.length === 0 ? ['an empty case'] : entries.map(([key, value]) => `${key}: ${valueWords(value)}`)
}

export function caseStory(testCase: unknown, story: readonly string[] | undefined, isScenario: boolean): string[] {
  if (story && story.length > 0) return [...story]
  return isScenario ? scenarioStory(testCase as Scenario) : caseInWords(testCase)
}
