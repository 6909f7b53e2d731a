/**
 * The calls made before the ones a claim is about, so that there is state for them to read,
 * repeat or destroy: up to two calls of the server's state-changing tools (any tool not
 * annotated read-only), either with strings taken from the calls under test, so that they touch
 * what those touch (the same note, entity or path), or — when the tool under test changes state
 * itself — that tool with some of its arguments kept and the others generated afresh (the same
 * name with other content: what an overwrite needs).
 */
import fc from 'fast-check'
import type { JsonValue } from '../../contract/spec.js'
import { callArbitrary } from './call-arbitrary.js'
import { mcpArgumentsFor } from './mcp-arguments.js'
import type { McpTarget } from './target.js'
import type { McpCall, McpTool } from './types.js'

export const MAX_EARLIER_CALLS = 2

export function withEarlierCalls<T>(main: fc.Arbitrary<T>, target: McpTarget, tool?: McpTool): fc.Arbitrary<[McpCall[], T]> {
  const tools = target.tools.filter((t) => t.hints.readOnlyHint !== true)
  if (tools.length === 0) return main.map((m): [McpCall[], T] => [[], m])
  return main.chain((m) => {
    const strings = stringsIn(m)
    const touching = strings.length > 0 ? callArbitrary(tools, strings, true)! : callArbitrary(tools, target.words)!
    const variants = tool && tool.hints.readOnlyHint !== true ? variantsOf(tool, m, target) : undefined
    const calls = variants ? fc.oneof(touching, variants) : touching
    return fc.tuple(fc.array(calls, { maxLength: MAX_EARLIER_CALLS }), fc.constant(m))
  })
}

/** `tool` called with some of `main`'s arguments kept, the rest generated afresh. */
function variantsOf(tool: McpTool, main: unknown, target: McpTarget): fc.Arbitrary<McpCall> | undefined {
  if (typeof main !== 'object' || main === null || Array.isArray(main)) return undefined
  const kept = main as { [k: string]: JsonValue }
  const args = mcpArgumentsFor(tool.name, tool.inputSchema, target.words)
  return fc
    .tuple(args.arbitrary, fc.subarray(Object.keys(kept)))
    .map(([fresh, keys]) => ({ ...(fresh as object), ...Object.fromEntries(keys.map((k) => [k, kept[k]!])) }) as JsonValue)
    .filter(args.isValid)
    .map((input): McpCall => ({ tool: tool.name, arguments: input }))
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
