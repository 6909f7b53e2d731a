/**
 * Checks for model-visible pieces that the registry publishes: content blocks and user messages
 * must be well-shaped lossless JSON (OUT-2, META-1, OUT-5). Each check returns a fresh copy or a reason.
 */
import type { ContentBlock, UserMessage } from '../harness/contract/spec.js'
import { snapshotJson } from './json/lossless.js'

/** A failure is `lossless` when the input was lossless JSON of the wrong shape (OUT-5). */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string; lossless?: true }

export function checkContent(input: unknown): Checked<ContentBlock[]> {
  const snap = snapshotJson(input)
  if (!snap.ok) return { ok: false, reason: `content is not lossless JSON (${snap.reason} at ${snap.path})` }
  if (!Array.isArray(snap.value)) return { ok: false, reason: 'content is not an array', lossless: true }
  for (const block of snap.value) {
    if (!isContentBlock(block)) return { ok: false, reason: 'content holds a malformed block', lossless: true }
  }
  return { ok: true, value: snap.value as ContentBlock[] }
}

export function checkContexts(input: unknown): Checked<UserMessage[]> {
  const snap = snapshotJson(input)
  if (!snap.ok) return { ok: false, reason: `context is not lossless JSON (${snap.reason} at ${snap.path})` }
  if (!Array.isArray(snap.value)) return { ok: false, reason: 'additionalContexts is not an array', lossless: true }
  for (const message of snap.value) {
    if (!isUserMessage(message)) return { ok: false, reason: 'a context is not a user message', lossless: true }
  }
  return { ok: true, value: snap.value as UserMessage[] }
}

export function checkContext(input: unknown): Checked<UserMessage> {
  const checked = checkContexts([input])
  return checked.ok ? { ok: true, value: checked.value[0]! } : checked
}

function isContentBlock(block: unknown): boolean {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return false
  const b = block as Record<string, unknown>
  if (b.type === 'text') return typeof b.text === 'string'
  if (b.type === 'image') return typeof b.mimeType === 'string' && typeof b.data === 'string'
  return false
}

function isUserMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false
  const m = message as Record<string, unknown>
  return m.role === 'user' && Array.isArray(m.content) && m.content.every(isContentBlock)
}

export const textContent = (text: string): ContentBlock[] => [{ type: 'text', text }]
