/**
 * SPEC.md's shapes of published data, read on plain values: a ContentBlock, a ContentBlock[], a
 * UserMessage. The model reads them on a descriptor's JSON; the judge on what was published.
 */

export function isBlock(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false
  const b = block as Record<string, unknown>
  if (b.type === 'text') return typeof b.text === 'string'
  if (b.type === 'image') return typeof b.mimeType === 'string' && typeof b.data === 'string'
  return false
}

export const isBlocks = (content: unknown): boolean => Array.isArray(content) && content.every(isBlock)

export function isUserMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false
  const m = message as Record<string, unknown>
  return m.role === 'user' && isBlocks(m.content)
}
