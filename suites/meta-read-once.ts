/**
 * META-2 with content and meta that a tool's code hands over holding an accessor that answers anew on
 * each read (a lazily rendered text): "`JSON.parse(JSON.stringify(outcome))` deep-equals every
 * published outcome". Whatever read a registry keeps, the published outcome is data: two reads of it
 * agree. One that checks a copy and publishes the tool's own objects still holds the accessor.
 */
import fc from 'fast-check'
import { ANY_SCHEMA, deepEqualJson, publishedText, safeJson } from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ContentBlock, JsonValue } from '../harness/contract/spec.js'

type Source = 'finalizer' | 'render' | 'meta'

export interface LiveTextCase {
  /** Which callback hands over the accessor: the finalizer's or the render's blocks, or meta. */
  source: Source
  /** Whether the tool's body fails (a finalizer's blocks then stand in an error outcome). */
  fails: boolean
}

const SOURCE: Record<Source, string> = {
  finalizer: 'its finalizer returns one text block',
  render: 'its render returns one text block',
  meta: 'its presentationMeta returns { note }',
}

/** An object whose `key` answers `render #1`, `render #2`… read after read. */
function liveField<T extends object>(base: T, key: string): T {
  let reads = 0
  return Object.defineProperty(base, key, { enumerable: true, configurable: true, get: () => `render #${++reads}` })
}

const liveBlock = () => liveField({ type: 'text' } as ContentBlock, 'text')

export const readOnce = custom(
  'META-2',
  'an outcome built from content or meta holding an accessor is published as data: JSON.parse(JSON.stringify(outcome)) deep-equals it',
  fc.record({ source: fc.constantFrom<Source>('finalizer', 'finalizer', 'render', 'meta'), fails: fc.boolean() }),
  (c) => [
    `tool probe: ${SOURCE[c.source]} whose text is a getter answering "render #1", "render #2"… read after read`,
    `one call to probe; its body ${c.fails && c.source === 'finalizer' ? 'throws' : 'returns { ok: true }'}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const render = (_args: JsonValue, value: JsonValue): ContentBlock[] => (c.source === 'render' ? [liveBlock()] : [{ type: 'text', text: safeJson(value) }])
    registry.register(liveTool('probe', {
      output: { schema: ANY_SCHEMA, render, ...(c.source === 'meta' ? { presentationMeta: () => liveField({}, 'note') as JsonValue } : {}) },
      execute: async () => {
        if (c.fails && c.source === 'finalizer') throw new Error('probe fails')
        return { ok: true } as JsonValue
      },
      ...(c.source === 'finalizer' ? { finalizeContent: () => [liveBlock()] } : {}),
    }))
    const outcome = await registry.execute(input('probe'))
    // An outcome holding what JSON cannot hold at all fails here, in words (a getter, a BigInt); a protocol copy is read through.
    const text = publishedText(outcome, 'META-2', 'the published outcome')
    if (!deepEqualJson(JSON.parse(text), outcome)) {
      ctx.fail(`the published outcome reads differently each time (content ${safeJson(outcome.content)}): an accessor was published, not its data`)
    }
  },
)
