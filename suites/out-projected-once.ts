/**
 * OUT-2 with a value whose getter answers differently on each read: "`content` is
 * `output.render(args, value)` and `meta` is `output.presentationMeta(args, value)`". Whichever read
 * a registry publishes (OUT-1 leaves the reads open), the projections are of that published value:
 * a render or meta handed the body's own object reads the getter again and shows another value.
 */
import fc from 'fast-check'
import { ANY_SCHEMA, buildValue, deepEqualJson, safeJson, valueWords, type ValueDesc } from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ContentBlock, JsonValue } from '../harness/contract/spec.js'

export interface ShiftingReadsCase {
  /** What the getter of the value's `n` answers, read after read (the last one from then on): integers, the last one new. */
  reads: number[]
}

/** The first answer, repeated up to three times now and then (a registry may read `n` before it snapshots), then another. */
const shiftingReads: fc.Arbitrary<ShiftingReadsCase> = fc
  .tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -9, max: 9 }), fc.constantFrom(1, 1, 1, 2, 3))
  .filter(([first, then]) => first !== then)
  .map(([first, then, repeats]) => ({ reads: [...Array.from({ length: repeats }, () => first), then] }))

const valueOf = (c: ShiftingReadsCase): ValueDesc => ({ n: { $: 'shifting-getter', reads: c.reads } })

const render = (_args: JsonValue, value: JsonValue): ContentBlock[] => [{ type: 'text', text: safeJson(value) }]
const presentationMeta = (_args: JsonValue, value: JsonValue) => ({ n: (value as { n?: JsonValue }).n ?? null })

export const projectedOnce = custom(
  'OUT-2',
  'content and meta are projections of the published value, not of another read of the body\'s object',
  shiftingReads,
  (c) => [
    'tool probe: any output; render shows the value as JSON text, presentationMeta shows its n',
    `one call: the body returns { n } whose getter answers ${c.reads.map((n) => valueWords(n)).join(', then ')}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('probe', {
      output: { schema: ANY_SCHEMA, render, presentationMeta },
      execute: async () => buildValue(valueOf(c)) as JsonValue,
    }))
    const result = await registry.execute(input('probe'))
    if (result.isError) return
    const { value, content, meta } = result as { value?: JsonValue; content?: unknown; meta?: unknown }
    const published = value ?? null
    if (!deepEqualJson(content, render(null, published))) {
      ctx.fail(`a success published the value ${safeJson(published)} with content ${safeJson(content)}, rendered from another value`)
    }
    if (meta !== undefined && !deepEqualJson(meta, presentationMeta(null, published))) {
      ctx.fail(`a success published the value ${safeJson(published)} with meta ${safeJson(meta)}, projected from another value`)
    }
  },
)
