/** One-line text for a call's outcome and for a run, for violation details. */
import type { McpCall, McpOutcome, Observation } from './types.js'
import { short } from './changes.js'

export function describeOutcome(outcome: McpOutcome | undefined): string {
  if (outcome === undefined) return 'did not run'
  if ('requestError' in outcome) return `request error ${outcome.requestError.code ?? ''} "${outcome.requestError.message}"`
  const result = outcome.result as { isError?: boolean; content?: { type?: string; text?: string }[]; structuredContent?: unknown }
  const text = (result.content ?? []).map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ')
  return `${result.isError ? 'error ' : ''}${short(text)}`
}

export function describeCall(call: McpCall): string {
  return `${call.tool}(${short(call.arguments)})`
}

export function describeRun(outcomes: readonly (McpOutcome | undefined)[], observation: Observation): string {
  return `${outcomes.map((o, i) => `#${i + 1} → ${describeOutcome(o)}`).join(', ')}; observed ${short(observation)}`
}
