/**
 * The calls made before the ones a claim is about, so that there is state for them to read,
 * repeat or destroy: up to two calls of the server's state-changing tools (any tool not
 * annotated read-only), either with strings taken from the calls under test, so that they touch
 * what those touch (the same note, entity or path), or — when the tool under test changes state
 * itself — that tool with its arguments but one kept and that one generated afresh (the same
 * name with other content: what an overwrite needs). Then there is at least one earlier call:
 * the schema's edges are tried with none.
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
    return fc.tuple(fc.array(calls, { minLength: variants ? 1 : 0, maxLength: MAX_EARLIER_CALLS }), fc.constant(m))
  })
}

/** `tool` called with `main`'s arguments but one, that one generated afresh. */
function variantsOf(tool: McpTool, main: unknown, target: McpTarget): fc.Arbitrary<McpCall> | undefined {
  if (typeof main !== 'object' || main === null || Array.isArray(main) || Object.keys(main).length === 0) return undefined
  const kept = main as { [k: string]: JsonValue }
  const args = mcpArgumentsFor(tool.name, tool.inputSchema, target.words)
  return fc
    .tuple(args.arbitrary, fc.constantFrom(...Object.keys(kept)))
    .map(([fresh, key]) => {
      const { [key]: regenerated } = fresh as { [k: string]: JsonValue }
      const { [key]: _replaced, ...rest } = kept
      return (regenerated === undefined ? rest : { ...rest, [key]: regenerated }) as JsonValue
    })
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
