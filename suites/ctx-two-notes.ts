/** Two user messages a body defers, and how an outcome's contexts read against them (CTX-1's direct checks). */
import { safeJson } from '../harness/property/vocabulary.js'
import type { ToolExecutionResult, ToolRunContext, UserMessage } from '../harness/contract/spec.js'

const note = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] })

const notes = (prefix: string) => [note(`${prefix}note 1`), note(`${prefix}note 2`)]

/** Defers "<prefix>note 1" and "<prefix>note 2", in that order. */
export function deferTwoNotes(exec: ToolRunContext, prefix = ''): void {
  for (const message of notes(prefix)) exec.deferContext(message)
}

/** The texts of the outcome's contexts, as words for a failure; undefined when they are the two notes, in order. */
export function unlessTwoNotes(result: ToolExecutionResult, prefix = ''): string | undefined {
  const texts = safeJson((result.additionalContexts ?? []).map((m) => safeJson(m.content)))
  return texts === safeJson(notes(prefix).map((m) => safeJson(m.content))) ? undefined : texts
}
