/**
 * The calls made before the ones a claim is about, so that there is state for them to read,
 * repeat or destroy: up to two calls of the server's state-changing tools (any tool not
 * annotated read-only) whose strings are the strings of the calls under test, so that they touch
 * what those touch (the same note, entity or path).
 */
import fc from 'fast-check'
import { callArbitrary } from './call-arbitrary.js'
import type { McpTarget } from './target.js'
import type { McpCall } from './types.js'

export const MAX_EARLIER_CALLS = 2

export function withEarlierCalls<T>(main: fc.Arbitrary<T>, target: McpTarget): fc.Arbitrary<[McpCall[], T]> {
  const tools = target.tools.filter((t) => t.hints.readOnlyHint !== true)
  if (tools.length === 0) return main.map((m): [McpCall[], T] => [[], m])
  return main.chain((m) => {
    const strings = stringsIn(m)
    const calls = strings.length > 0 ? callArbitrary(tools, strings, true)! : callArbitrary(tools, target.words)!
    return fc.tuple(fc.array(calls, { maxLength: MAX_EARLIER_CALLS }), fc.constant(m))
  })
}

function stringsIn(value: unknown): string[] {
  const out = new Set<string>()
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk)
  }
  walk(value)
  return [...out]
}
