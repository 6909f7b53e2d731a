/** OUT: the canonical output. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  invalidOutput,
  mutatingRender,
  nowAndThen,
  nowAndThenWith,
  projection,
  quiet,
  scenario,
  SHARED_OUTPUTS,
  timing,
  tool,
  toolOfItsOwn,
  unserialisable,
  withNested,
  type DecisionSpec,
  type ProjectionSpec,
  type Scenario,
  type SharedOutput,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { projectedOnce } from './out-projected-once.js'
import { outputSnapshotOnce } from './out-snapshot-once.js'
import { alongside, withDirect } from './with-direct.js'
import { throwingMeta } from './out-throwing-meta.js'
import { arraySubclass } from './out-array-subclass.js'
import { adjacentText } from './out-adjacent-text.js'
import { schemaCorners } from './out-schema-corners.js'

const one = (arb: fc.Arbitrary<ToolSpec>) => fc.array(arb, { minLength: 1, maxLength: 1 })
/** Half the time the render always succeeds, so an invalid value that slipped through would show as a success. */
const lenientRender = fc.oneof(projection(true), fc.constant<ProjectionSpec>({ kind: 'returns', value: [{ type: 'text', text: 'rendered' }] }))
const invalidValueTool = fc.tuple(tool(), invalidOutput, lenientRender).map(([t, o, render]): ToolSpec => (
  { ...t, render, outputSchema: o.schema, body: { steps: t.body.steps, outcome: { kind: 'return', value: o.value } } }
))
/**
 * Boxed primitives (`new Number(3)`, `new String('x')`), alone or inside JSON: class instances, not
 * lossless JSON, which unwrapped would pass any schema. Returned by the tool in a quarter of the
 * cases, its schema taking any JSON; drawn last, so the rest of a case is what it was before.
 */
const boxedValue = fc.constantFrom<ValueDesc>(
  { $: 'boxed', value: 3 },
  { $: 'boxed', value: 'x' },
  { $: 'boolean-object' },
  { n: { $: 'boxed', value: 1 } },
  [{ $: 'boxed', value: 'x' }],
)
/** A row of numbers (an embedding, a histogram) holding -0: not lossless JSON, however fast the path for plain rows. */
const negativeZeroInRow = fc.constantFrom<ValueDesc>([0.5, { $: 'negzero' }, 2], [{ $: 'negzero' }], [1, 2, 3, { $: 'negzero' }])
const returningValue = (s: Scenario, value: ValueDesc): Scenario => ({
  ...s,
  tools: s.tools.map((t) => ({ ...t, outputSchema: ANY_SCHEMA, body: { steps: t.body.steps, outcome: { kind: 'return', value } } })),
})
/** A tool of its own returns `row` and is called last: the row is the value that call publishes. */
const returningRow = (s: Scenario, row: ValueDesc): Scenario =>
  calledLast(s, 'row', { outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value: row } } })
/**
 * In a quarter of OUT-1's cases more, a tool of its own, called last, returns what JSON.stringify
 * would turn into text: a Date, or an object with a toJSON method of its own. Neither is lossless
 * JSON: INVALID_TOOL_OUTPUT, never the text. Drawn last.
 */
const stringifiable = fc.constantFrom<ValueDesc>({ at: { $: 'date' } }, [{ $: 'date' }], { n: 1, toJSON: { $: 'function' } })
const returningStringifiable = (s: Scenario, value: ValueDesc): Scenario =>
  calledLast(s, 'dated', { outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value } } })
/**
 * In half of OUT-1's cases, a tool of its own, called last, returns a long list (100 to 160
 * items, as a search or a table does) under a schema of integer items, with one item in the middle
 * that the schema refuses or that is not lossless JSON: every item is checked. Drawn last.
 */
const longList = fc.record({
  length: fc.constantFrom(100, 128, 160),
  bad: fc.constantFrom<ValueDesc>('7', 1.5, null, { $: 'negzero' }),
})
const INTEGER_LIST: ValueDesc = { type: 'array', items: { type: 'integer' } }
const returningLongList = (s: Scenario, { length, bad }: { length: number; bad: ValueDesc }): Scenario => {
  const middle = Math.floor(length / 2)
  const items = Array.from({ length }, (_, i): ValueDesc => (i === middle ? bad : i))
  return calledLast(s, 'listing', { outputSchema: INTEGER_LIST, body: { steps: [], outcome: { kind: 'return', value: items } } })
}
/**
 * In a quarter of OUT-1's cases more, a tool of its own returns a valid value that holds one object
 * twice, and is called last: a shared subtree is no cycle, the value is published. Drawn last.
 */
const returningShared = (s: Scenario, shared: SharedOutput): Scenario =>
  calledLast(s, 'shared', { outputSchema: shared.schema, body: { steps: [], outcome: { kind: 'return', value: shared.value } } })
/**
 * In a quarter of OUT-1's cases more, a tool of its own returns nothing at all, its schema taking any
 * JSON, and is called last: `undefined` is no JSON, never published as null. Drawn last.
 */
const returningNothing = (s: Scenario): Scenario =>
  calledLast(s, 'nothing', { outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value: { $: 'undefined' } } } })
/**
 * In a fifth of OUT-1's cases two tools return `{ n: 5 }`, one whose schema wants an integer n and
 * one a string n, called in that order: schemas alike at the top level each keep their own
 * validator, so the second value is INVALID_TOOL_OUTPUT. Drawn last.
 */
function twoSchemas(s: Scenario): Scenario {
  const template = s.tools[0]
  if (!template) return s
  const { scope: _scope, define: _define, finalize: _finalize, meta: _meta, attack: _attack, ...plain } = template
  const returning = (name: string, type: string): ToolSpec => ({
    ...plain,
    name,
    outputSchema: { type: 'object', properties: { n: { type } }, required: ['n'] },
    render: { kind: 'json-text' },
    body: { steps: [], outcome: { kind: 'return', value: { n: 5 } } },
  })
  const tools = [returning('count_items', 'integer'), returning('label_items', 'string')]
  return { ...s, tools, calls: tools.map((t) => ({ tool: t.name, args: {} })) }
}
/** presentationMeta answers of every kind, including throwing, returning undefined (no meta) and a -0 JSON would turn into 0. */
const metaProjection = fc.oneof(
  projection(false),
  fc.constantFrom<ProjectionSpec>({ kind: 'throws' }, { kind: 'returns', value: { $: 'undefined' } }),
  // null is a meta (lossless JSON), not the absence of one.
  { weight: 2, arbitrary: fc.constant<ProjectionSpec>({ kind: 'returns', value: null }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<ProjectionSpec>({ kind: 'returns', value: { $: 'negzero' } }, { kind: 'returns', value: { at: [1, { $: 'negzero' }] } }),
  },
)
/** Renders that are not content: not an array, null or malformed blocks, a good block beside a bad one. */
const malformedContent = fc.constantFrom<ValueDesc>(
  'text',
  {},
  [null],
  [{ type: 'text' }],
  [{ type: 'text', text: 1 }],
  [{ type: 'video' }],
  [{ type: 'image', mimeType: 'image/png' }],
  [{ type: 'text', text: 'ok' }, { type: 'image', data: 'AA==' }],
  [['nested']],
)
/** Lossless JSON of the wrong shape: content that is not a ContentBlock[], contexts that are not UserMessages. */
const shapelessContent = fc.constantFrom<ValueDesc>(
  'text',
  {},
  [null],
  [{ type: 'text' }],
  [{ type: 'video' }],
  { type: 'text', text: 'not in an array' },
  [['nested']],
)
const shapelessContext = fc.constantFrom<ValueDesc>('a message', { role: 'assistant', content: [] }, { role: 'user', content: 'text' }, { role: 'user' }, [], 1)
/** One source of wrong-shaped output per case: the render, the finalizer, a deferred context, or a post-execute decision. */
const shapelessTool = fc.tuple(
  tool(),
  fc.constantFrom('render', 'finalize', 'defer', 'none'),
  shapelessContent,
  shapelessContext,
).map(([t, where, content, context]): ToolSpec => {
  const returns = { kind: 'return' as const, value: 1 }
  const base: ToolSpec = {
    ...t,
    outputSchema: ANY_SCHEMA,
    render: { kind: 'json-text' },
    body: { steps: t.body.steps.filter((x) => x.kind !== 'defer'), outcome: returns },
  }
  if (where === 'render') return { ...base, render: { kind: 'returns', value: content } }
  if (where === 'finalize') return { ...base, finalize: { kind: 'returns', value: content } }
  if (where === 'defer') return {
    ...base,
    body: { steps: [{ kind: 'defer', context: { role: 'user', content: [{ type: 'text', text: 'ok' }] } }, { kind: 'defer', context }], outcome: returns },
  }
  return base
})
const shapelessDecision = fc.tuple(
  fc.constantFrom('accept', 'block', 'contexts'),
  shapelessContent,
  shapelessContext,
).map(([kind, content, context]): DecisionSpec => ({
  kind: 'returns',
  value: kind === 'accept' ? { kind: 'accept', content } : kind === 'block' ? { kind: 'block', feedback: content } : {
    kind: 'accept',
    additionalContexts: [context],
  },
}))
const shapelessPost = fc.array(fc.record({ timing, decision: fc.oneof(shapelessDecision, fc.constant<DecisionSpec>({ kind: 'delegate' })) }), { maxLength: 1 })

/** Renders that are not lossless JSON (OUT-2); lossless ones of the wrong shape are OUT-5's. */
const losslessNot = fc.constantFrom<ValueDesc>(
  [{ type: 'text', text: { $: 'bigint' } }],
  { $: 'cycle' },
  [{ $: 'undefined' }],
  [{ type: 'text', text: 'ok' }, { $: 'function' }],
)
/** Now and then the first tool renders no blocks: its value still has its meta beside the empty content (OUT-2). */
const emptyCard = (s: Scenario): Scenario => ({
  ...s,
  tools: s.tools.map((t, i) => (i === 0 ? { ...t, render: { kind: 'returns', value: [] }, meta: t.meta ?? { kind: 'json-text' } } : t)),
})

/** Post-execute decisions that leave the value as it is: new content, or the result accepted as it is. */
const keepingTheValue = fc.constantFrom<DecisionSpec>(
  { kind: 'returns', value: { kind: 'accept', content: [{ type: 'text', text: 'reworded' }] } },
  { kind: 'returns', value: { kind: 'accept', content: [] } },
  { kind: 'returns', value: { kind: 'accept' } },
)
/**
 * Now and then, where the first tool projects meta and its render does not throw, a post-execute
 * listener puts new content in place, or accepts: the value stays, and so does the meta
 * presentationMeta made of it (OUT-2), whatever the listener said of the content.
 */
function contentReplaced(s: Scenario, decision: DecisionSpec): Scenario {
  const first = s.tools[0]
  if (!first?.meta || first.render.kind === 'throws') return s
  return { ...s, post: [{ timing: 'sync', decision }] }
}

/**
 * Now and then every caller spreads an options object into its input: `parent` (and, with no agent,
 * `agent`) an own key holding undefined. That is no parent: the call is no nested one, and its
 * success carries presentationMeta's meta (only a call with a parent may omit it).
 */
const withSpreadOptions = (s: Scenario): Scenario => ({ ...s, calls: s.calls.map((c) => (c.program ? c : { ...c, spreadsOptions: true })) })

/**
 * A render and a meta to judge. A failing meta or a finalizer (which replaces or fails the content) hides what the
 * registry made of the render, so half the cases have a plain meta and half drop the tool's finalizer.
 */

const projectingTool = fc.tuple(
  tool(),
  fc.oneof(
    projection(true),
    { weight: 2, arbitrary: fc.constant<ProjectionSpec>({ kind: 'throws' }) },
    fc.oneof(malformedContent, losslessNot).map((value): ProjectionSpec => ({ kind: 'returns', value })),
    { weight: 3, arbitrary: mutatingRender },
  ),
  fc.oneof(metaProjection, fc.constant<ProjectionSpec>({ kind: 'json-text' })),
  fc.boolean(),
).map(([{ finalize, ...t }, render, meta, finalized]): ToolSpec => ({
  ...t,
  ...(finalized && finalize ? { finalize } : {}),
  render,
  meta,
  body: { steps: [], outcome: { kind: 'return', value: 1 } },
  outputSchema: ANY_SCHEMA,
}))
/** An object JSON would write as a plain one, but is not: a Map, a Date, a class instance, a boxed primitive. */
const notPlain: fc.Arbitrary<ValueDesc> = fc
  .tuple(fc.constantFrom<ValueDesc>({ $: 'map' }, { $: 'date' }, { $: 'instance' }, { $: 'boolean-object' }, { $: 'boxed', value: 'x' }), fc.nat(2))
  .map(([leaf, depth]) => (depth === 0 ? leaf : depth === 1 ? { k: leaf } : { outer: [leaf] }))
/**
 * In a quarter of OUT-2's cases a tool of its own renders well and its meta holds one of them, and
 * it is called last: a registry that copies a meta key by key, never looking at prototypes,
 * publishes it as plain JSON. Drawn last, so the rest of a case is what it was before.
 */
function withNotPlainMeta(s: Scenario, meta: ValueDesc): Scenario {
  return calledLast(s, 'metered', {
    outputSchema: ANY_SCHEMA,
    body: { steps: [], outcome: { kind: 'return', value: 1 } },
    render: { kind: 'returns', value: [{ type: 'text', text: 'x' }] },
    meta: { kind: 'returns', value: meta },
  })
}

/** The case with a tool of its own, its first tool's model without a finalizer, changed, and called last. */
function calledLast(s: Scenario, name: string, changes: Partial<ToolSpec>): Scenario {
  const model = s.tools[0]
  if (!model) return s
  const { finalize: _finalize, ...unfinalized } = model
  return { ...s, tools: [...s.tools, toolOfItsOwn(unfinalized, name, changes)], calls: [...s.calls, { tool: name, args: {} }] }
}

/**
 * In a quarter of OUT-2's cases a tool of its own returns a falsy value (0, '', false, null) and
 * projects it like any other, meta included, and it is called last: a projection is made of every
 * value, never skipped for one that reads as nothing. Drawn last.
 */
const falsy = fc.constantFrom<ValueDesc>(0, '', false, null)
function withFalsyValue(s: Scenario, value: ValueDesc): Scenario {
  return calledLast(s, 'falsy', {
    outputSchema: ANY_SCHEMA,
    body: { steps: [], outcome: { kind: 'return', value } },
    render: { kind: 'json-text' },
    meta: { kind: 'json-text' },
  })
}

/**
 * In a quarter of OUT-2's cases a tool of its own renders a well-shaped text block that also holds a
 * field JSON cannot (a BigInt, a Date, undefined…), and is called last: the render is not lossless
 * JSON, so INVALID_TOOL_OUTPUT, never a block rebuilt from its known fields. Drawn last.
 */
const withSmuggledBlockField = (s: Scenario, leaf: ValueDesc): Scenario => calledLast(s, 'smuggler', {
  outputSchema: ANY_SCHEMA,
  body: { steps: [], outcome: { kind: 'return', value: 1 } },
  render: { kind: 'returns', value: [{ type: 'text', text: 'x', extra: leaf }] },
})

const throwingTool = tool().map((t): ToolSpec => (
  { ...t, body: { steps: t.body.steps, outcome: t.body.outcome.kind === 'return' ? { kind: 'throw', thrown: { $: 'error' } } : t.body.outcome } }
))
const codedTool = fc.tuple(tool(), fc.constantFrom('E_TOOL', 'ENOENT', 'RATE_LIMITED')).map(([t, code]): ToolSpec => (
  { ...t, body: { steps: t.body.steps, outcome: { kind: 'throw', thrown: { $: 'error', code } } } }
))

/**
 * In a quarter of OUT-3's cases the first tool's body throws an Error carrying blocks of its own, as
 * an MCP-style tool error does: none, an image alone, an empty text. The outcome's content is still
 * model-readable text. Drawn last.
 */
const ownBlocks = fc.constantFrom<ValueDesc>([], [{ type: 'image', mimeType: 'image/png', data: 'AA==' }], [{ type: 'text', text: '' }])
const throwingWithBlocks = (s: Scenario, content: ValueDesc): Scenario => ({
  ...s,
  tools: s.tools.map((t, i) => (i > 0 ? t : { ...t, body: { steps: t.body.steps, outcome: { kind: 'throw', thrown: { $: 'error', content } } } })),
})

/**
 * In a quarter of OUT-3's cases the first tool's body throws with nothing to say: an Error whose
 * message is empty, or an empty string. The outcome's content is model-readable text all the same. Drawn last.
 */
const saysNothing = fc.constantFrom<ValueDesc>({ $: 'error', message: '' }, { $: 'error', message: '', name: 'TypeError' }, '')
const throwingNothingToSay = (s: Scenario, thrown: ValueDesc): Scenario => ({
  ...s,
  tools: s.tools.map((t, i) => (i > 0 ? t : { ...t, body: { steps: t.body.steps, outcome: { kind: 'throw', thrown } } })),
})

/** A body that throws before returning a promise: scenario bodies are async, so this one is direct. */
const syncThrow = custom(
  'OUT-4', 'a body that throws synchronously keeps its thrown code, whatever kind of value it throws',
  fc.record({ code: fc.constantFrom('E_TOOL', 'ENOENT'), withPost: fc.boolean(), thrown: fc.constantFrom('error', 'function', 'plain object') }),
  (c) => [
    `tool sync_thrower: its body throws synchronously ${c.thrown === 'error' ? 'an Error' : `a ${c.thrown}`} with code ${c.code}`,
    c.withPost ? 'a post-execute listener that delegates' : 'no post-execute listener',
    'one call to sync_thrower',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const value = c.thrown === 'error' ? new Error('thrown synchronously') : c.thrown === 'function' ? () => 'a thrown function' : {
      message: 'a thrown object',
    }
    registry.register(liveTool('sync_thrower', {
      execute: (() => {
        throw Object.assign(value, { code: c.code })
      }) as never,
    }))
    if (c.withPost) registry.onPostExecute((_exec, _result, next) => next())
    const result = await registry.execute(input('sync_thrower'))
    if (!result.isError) return ctx.fail('a body that threw was published as a success')
    if (codeOf(registry, result) !== c.code) ctx.fail(`the outcome's code is ${codeOf(registry, result)}, expected the thrown ${c.code}`)
  },
)

/**
 * In a third of OUT-1's cases the first tool's schema closes a nested object and its body returns
 * one extra key inside it, now and then one named like what every object inherits (`constructor`):
 * a value that fails output.schema is refused, never published with the key pruned or kept. Drawn last.
 */
const closedNested: ValueDesc = {
  type: 'object',
  properties: { user: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } },
  required: ['user'],
}
const extraKey = fc.constantFrom('passwordHash', 'constructor', 'toString', 'valueOf')
const returningExtraKey = (s: Scenario, key: string): Scenario => ({
  ...s,
  tools: s.tools.map((t, i) => (i > 0 ? t : {
    ...t, outputSchema: closedNested, body: { steps: t.body.steps, outcome: { kind: 'return', value: { user: { name: 'ada', [key]: 'x' } } } },
  })),
})

export default [
  alongside(alongside(withDirect(judged(
    'OUT-1', 'a value that is not lossless JSON or fails output.schema is INVALID_TOOL_OUTPUT, never a success',
    scenario({ ...quiet, tools: one(invalidValueTool), calls: { max: 2 } })
      .chain(nowAndThenWith(boxedValue, returningValue))
      .chain(nowAndThen(twoSchemas, 5))
      .chain(nowAndThenWith(extraKey, returningExtraKey, 3))
      .chain(nowAndThen(returningNothing))
      .chain(nowAndThenWith(negativeZeroInRow, returningRow))
      .chain(nowAndThenWith(fc.constantFrom(...SHARED_OUTPUTS), returningShared))
      .chain(nowAndThenWith(stringifiable, returningStringifiable))
      .chain(nowAndThenWith(longList, returningLongList, 2)),
  ), outputSnapshotOnce, { scenario: 2, direct: 1 }), arraySubclass, { where: ['nested', 'top'] }),
  schemaCorners, { corners: ['a value shaped like a tool error', 'a closed object with no properties declared'] }),
  alongside(alongside(withDirect(judged(
    'OUT-2',
    'content and meta are the output\'s projections (a nested call may omit meta); one that throws or returns non-lossless JSON is INVALID_TOOL_OUTPUT',
    scenario({
      ...quiet,
      tools: fc.oneof({ weight: 3, arbitrary: one(projectingTool) }, { weight: 1, arbitrary: withNested(projectingTool, projectingTool) }),
      calls: { max: 2 },
    }).chain(nowAndThenWith(notPlain, withNotPlainMeta)).chain(nowAndThenWith(falsy, withFalsyValue))
      .chain(nowAndThenWith(unserialisable, withSmuggledBlockField)).chain(nowAndThen(emptyCard))
      .chain(nowAndThenWith(keepingTheValue, contentReplaced)).chain(nowAndThen(withSpreadOptions)),
  ), projectedOnce, { everyLast: 4 }), throwingMeta, { thrown: ['an Error', 'a string'] }), adjacentText, { texts: ['Report\n', 'all good', ''] }),
  judged(
    'OUT-3', 'a body that throws becomes an error outcome whose content is model-readable text',
    scenario({ ...quiet, tools: one(throwingTool) }).chain(nowAndThenWith(ownBlocks, throwingWithBlocks))
      .chain(nowAndThenWith(saysNothing, throwingNothingToSay)),
  ),
  judged(
    'OUT-5',
    'a projection, finalizer or post-execute decision whose content is lossless but not a ContentBlock[], or a ' +
      'deferred context that is not a UserMessage, ends as INVALID_TOOL_OUTPUT',
    scenario({ ...quiet, tools: one(shapelessTool), post: shapelessPost, calls: { max: 2 } }),
  ),
  withDirect(judged(
    'OUT-4', 'a thrown value\'s own string code is kept as the outcome\'s error code, whether the body throws synchronously or rejects',
    scenario({ ...quiet, tools: one(codedTool) }),
  ), syncThrow, { scenario: 1, direct: 1 }),
]
