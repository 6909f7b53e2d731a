/**
 * OUT-1 with a value whose getter answers differently on each read: "A body's return value is
 * snapshotted as lossless JSON and validated against `output.schema`; a value that fails either is
 * an `INVALID_TOOL_OUTPUT` error outcome, never a success." SPEC fixes what is published, not the
 * reads: a registry may read the value more than once, and may end the call in error. What is
 * failed: a success whose value `output.schema` refuses, or that no read of the getter gave (one
 * read validated, another published).
 */
import fc from 'fast-check'
import { buildValue, deepEqualJson, jsonOf, nowAndThen, safeJson, valueWords, type ValueDesc } from '../harness/property/vocabulary.js'
import { custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue } from '../harness/contract/spec.js'
import type { RegistryUnderTest } from '../harness/contract/adapter.js'

export interface ShiftingOutputCase {
  /** What the getter of the value's `n` answers, read after read (the last one from then on). */
  reads: ValueDesc[]
  /**
   * Then, on a tool of its own, the body keeps one object and returns it from two calls, its `n` the
   * first read in the first call and changed in place to the last one before the second: each call's
   * value is judged anew.
   */
  keptObject?: true
}

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }

const accepted = fc.integer({ min: -9, max: 9 }) as fc.Arbitrary<ValueDesc>
const refused = fc.constantFrom<ValueDesc>('one', 1.5, null, [], { $: 'undefined' })

/**
 * Mostly reads the schema accepts, then reads it refuses; now and then the other way round. A
 * validator may read a value more than once (ajv reads `n` for `required`, then for its type), so
 * the first answer is repeated up to three times (twice most often: ajv's count) before it changes.
 */
const shiftingOutput: fc.Arbitrary<ShiftingOutputCase> = fc.tuple(
  fc.oneof({ weight: 6, arbitrary: fc.tuple(accepted, refused) }, { weight: 1, arbitrary: fc.tuple(refused, accepted) }),
  fc.constantFrom(1, 2, 2, 2, 3),
).map(([[first, then], repeats]): ShiftingOutputCase => ({ reads: [...Array.from({ length: repeats }, () => first), then] }))
  .chain(nowAndThen((c): ShiftingOutputCase => ({ ...c, keptObject: true }), 2))

const valueOf = (c: ShiftingOutputCase): ValueDesc => ({ n: { $: 'shifting-getter', reads: c.reads } })

/** The values a one-read snapshot could hold that the schema accepts. */
const acceptable = (c: ShiftingOutputCase): unknown[] =>
  c.reads.filter((read) => Number.isInteger(read)).map((read) => ({ n: jsonOf(read) }))

export const outputSnapshotOnce = custom(
  'OUT-1',
  'a value validated on one read is never published from another: a success holds a snapshot the output schema accepts',
  shiftingOutput,
  (c) => [
    'tool probe: output.schema requires an integer n',
    `one call: the body returns { n } whose getter answers ${c.reads.map(valueWords).join(', then ')}`,
    ...(c.keptObject ? [`tool kept, with the same schema: two calls, its body returning one object it keeps, { n: ${
      valueWords(c.reads[0]!)} }, then, changed in place, { n: ${valueWords(c.reads.at(-1)!)} }`] : []),
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('probe', {
      output: { schema: SCHEMA as JsonValue, render: (_args: JsonValue, value: JsonValue) => [{ type: 'text', text: safeJson(value) }] },
      execute: async () => buildValue(valueOf(c)) as JsonValue,
    }))
    const result = await registry.execute(input('probe'))
    const published = (result as { value?: unknown }).value
    if (!result.isError && !acceptable(c).some((value) => deepEqualJson(published, value))) {
      ctx.fail(`a success published the value ${safeJson(published)}, which the output schema refuses or no single read gave`)
    }
    if (c.keptObject) await keptObjectCalls(ctx, registry, c)
  },
)

/** Two calls returning one object, changed in place between them: a value is validated in every call, never once per object. */
async function keptObjectCalls(ctx: CustomContext, registry: RegistryUnderTest, c: ShiftingOutputCase): Promise<void> {
  const kept: { n?: unknown } = {}
  let calls = 0
  const values = [c.reads[0]!, c.reads.at(-1)!].map(jsonOf)
  registry.register(liveTool('kept', {
    output: { schema: SCHEMA as JsonValue, render: (_args: JsonValue, value: JsonValue) => [{ type: 'text', text: safeJson(value) }] },
    execute: async () => ((kept.n = values[calls++ % 2]), kept as JsonValue),
  }))
  for (const value of values) {
    const result = await registry.execute(input('kept'))
    if (result.isError) continue
    const published = (result as { value?: unknown }).value
    if (!Number.isInteger(value) || !deepEqualJson(published, { n: value })) {
      ctx.fail(`a call whose body returned { n: ${safeJson(value)} } published ${safeJson(published)} as a success`)
    }
  }
}
