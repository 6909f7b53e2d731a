/**
 * OUT-2 for a render of several text blocks in a row: "`content` is `output.render(args, value)`".
 * Content is what render returned, block for block: adjacent text blocks stay apart (a registry
 * that joins them into one "text part" publishes content render never returned).
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { safeJson } from '../harness/property/vocabulary.js'
import type { ContentBlock } from '../harness/contract/spec.js'

export interface AdjacentTextCase {
  /** The texts of the blocks render returns, one text block each, in a row. */
  texts: string[]
}

const story = (c: AdjacentTextCase): string[] => [
  `tool target whose render returns ${c.texts.length} text blocks in a row: ${c.texts.map((t) => safeJson(t)).join(', ')}`,
  'one call to target: its content is those blocks, as render returned them',
]

export const adjacentText = custom(
  'OUT-2', 'a render of adjacent text blocks is published block for block',
  fc.record({ texts: fc.constantFrom<string[]>(['Report', 'all good'], ['a', '', 'c'], ['line 1\n', 'line 2']) }),
  story,
  async (ctx, c) => {
    const registry = await ctx.registry()
    const rendered = (): ContentBlock[] => c.texts.map((text) => ({ type: 'text', text }))
    const tool = liveTool('target', { execute: async () => ({ ok: true }) })
    tool.output = { ...tool.output, render: rendered }
    registry.register(tool)
    const result = await registry.execute(input('target', {}, { callId: 'x-adjacent' }))
    if (result.isError) return ctx.fail(`a success rendered as ${c.texts.length} text blocks ended in error`)
    if (safeJson(result.content) !== safeJson(rendered())) ctx.fail(`render returned ${safeJson(rendered())}, the content was ${safeJson(result.content)}`)
  },
)
