/**
 * A failure explained for a person in a terminal: the clause and where it was found, the shrunk
 * case as a short story (its property's: case-story.ts), and the trace as a timeline with the
 * violating step marked. Used by `toolreg certify` under the matrix and by `toolreg replay`, so
 * both read the same.
 */
import type { Violation } from '../oracle/judge.js'
import type { Trace } from '../scenario/trace.js'
import { caseStory } from './case-story.js'
import { timelineLines } from './timeline.js'
import { replayCommand } from '../store/replay-command.js'

export interface ExplainInput {
  clause: string
  violations: readonly Violation[]
  /** The shrunk case; a scenario when `isScenario`, the property's own JSON otherwise. */
  testCase: unknown
  isScenario: boolean
  /** The case as its property tells it (saved with the counterexample, or told afresh by `replay`). */
  story?: readonly string[] | undefined
  trace?: Trace | undefined
  /** What the case first found broke, before shrinking kept the same check. */
  original?: readonly Violation[] | undefined
  seed?: number
  path?: string
  numRuns?: number
  file?: string
}

function where(input: ExplainInput): string {
  const parts = [
    input.seed !== undefined && `seed ${input.seed}`,
    input.path !== undefined && `path "${input.path}"`,
    input.numRuns !== undefined && `found after ${input.numRuns} case(s)`,
  ].filter(Boolean)
  return parts.length ? ` — ${parts.join(', ')}` : ''
}

export function explainFailure(input: ExplainInput): string {
  const indent = (lines: string[]) => lines.map((line) => `    ${line}`)
  const violated = input.violations.map((v) => `${v.clause}${v.call ? ` (${v.call})` : ''}: ${v.detail}`)
  const lines = [`${input.clause} failed${where(input)}`, ...indent(violated)]
  const original = (input.original ?? []).map((v) => `${v.clause}${v.call ? ` (${v.call})` : ''}: ${v.detail}`)
  if (original.length > 0 && original.join() !== violated.join()) lines.push('  the case first found, before shrinking:', ...indent(original))
  lines.push('  what happened:', ...indent(caseStory(input.testCase, input.story, input.isScenario)))
  const events = input.trace?.events ?? []
  if (input.trace && events.length > 0) lines.push('  timeline (▶ marks where it shows):', ...indent(timelineLines(input.trace, input.violations)))
  if (input.file) lines.push(`  replay: ${replayCommand(input.file)}`)
  return lines.join('\n')
}
