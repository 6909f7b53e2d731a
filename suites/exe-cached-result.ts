/**
 * EXE-4 across calls: a caching wrapper keeps the first result next() gave it and returns it for
 * every later call without calling next(). For a later call that result is made up: it was no
 * result of that call's own next(), so it is validated against that call's tool's output.schema and
 * rendered by that tool, never published as the first call left it.
 */
import fc from 'fast-check'
import type { JsonValue, ToolExecutionResult } from '../harness/contract/spec.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

interface CachedResult {
  /** Whether the second tool's output is a string, as the first tool's is: if not, the first's value is INVALID_TOOL_OUTPUT there. */
  fits: boolean
}

const rendering = (prefix: string, schema: JsonValue) => ({
  schema,
  render: (_args: JsonValue, value: JsonValue) => [{ type: 'text' as const, text: `${prefix}:${JSON.stringify(value)}` }],
})

export const cachedResult = custom(
  'EXE-4', 'a result another call\'s next() gave, returned by a wrapper, is made up for this call: validated and rendered by this call\'s tool',
  fc.record({ fits: fc.boolean() }),
  (c) => [
    'tool word: returns "x", its output a string, rendered as word:<JSON>',
    `tool count: returns ${c.fits ? '"7"' : '7'}, its output ${c.fits ? 'a string' : 'a number'}, rendered as count:<JSON>`,
    'a wrapper keeps the first result next() gives it and returns it for every later call, without calling next()',
    'a call to word, then a call to count',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('word', { execute: async () => 'x', output: rendering('word', { type: 'string' }) }))
    registry.register(liveTool('count', { execute: async () => (c.fits ? '7' : 7), output: rendering('count', { type: c.fits ? 'string' : 'number' }) }))
    let cached: ToolExecutionResult | undefined
    registry.onExecute(async (_exec, next) => (cached ??= await next()))
    const first = await ctx.scheduler.waitFor(registry.execute(input('word')))
    if (first.isError) return
    const second = await ctx.scheduler.waitFor(registry.execute(input('count')))
    if (!c.fits) {
      const invalid = second.isError && codeOf(registry, second) === 'INVALID_TOOL_OUTPUT'
      if (!invalid) ctx.fail('the word result, returned for count, did not end as INVALID_TOOL_OUTPUT though count\'s schema takes numbers only')
      return
    }
    if (second.isError) return ctx.fail('the word result, returned for count, whose schema takes it, ended in error')
    const text = (second.content as { text?: unknown }[] | undefined)?.[0]?.text
    if (text === 'count:"x"') return
    ctx.fail(`the word result, returned for count, was published with content ${JSON.stringify(second.content)}, not count's render of it`)
  },
)
