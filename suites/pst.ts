/** PST: tools/post-execute. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  contentDesc,
  contextDesc,
  invalidOutput,
  isContent as isValidContent,
  isLosslessDesc,
  jsonOf,
  nowAndThenWith,
  nowAndThen,
  withPostForAgentB,
  postListener,
  preListener,
  quiet,
  resurrectingWrites,
  scenario,
  succeedingTool,
  tool,
  toolOfItsOwn,
  validOutput,
  type DecisionSpec,
  type PostSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { postOverridden } from './overriding.js'
import { lateRejection } from './unawaited-rejection.js'
import { alongside, bothDirect, withDirect } from './with-direct.js'
import { emptyBlock } from './pst-empty-block.js'

const isValidContext = (c: ValueDesc) => isLosslessDesc(c) && (jsonOf(c) as { role?: unknown }).role === 'user'
const schemaMisfit = invalidOutput.filter((o) => isLosslessDesc(o.value)).map((o) => o.value)
/** Decisions that change a result, most of all the ones PST-1 allows: new content, a new value, a block. */
const changing: fc.Arbitrary<PostSpec> = fc.record({
  timing: fc.constantFrom('sync' as const, 'await' as const),
  decision: fc.oneof(
    { weight: 3, arbitrary: contentDesc.filter(isValidContent).map((content): DecisionSpec => ({ kind: 'returns', value: { kind: 'accept', content } })) },
    { weight: 3, arbitrary: validOutput.map((o): DecisionSpec => ({ kind: 'returns', value: { kind: 'accept', value: o.value } })) },
    // A lossless value most schemas reject: only re-validation keeps it from being published.
    { weight: 2, arbitrary: schemaMisfit.map((value): DecisionSpec => ({ kind: 'returns', value: { kind: 'accept', value } })) },
    { weight: 2, arbitrary: contentDesc.map((feedback): DecisionSpec => ({ kind: 'returns', value: { kind: 'block', feedback } })) },
    { weight: 2, arbitrary: postListener.map((p) => p.decision) },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom<ValueDesc>({ kind: 'accept' }, { kind: 'accept', value: 1 }, { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] }),
        contextDesc.filter(isValidContext),
      ).map(([decision, context]): DecisionSpec => ({ kind: 'returns', value: { ...(decision as object), additionalContexts: [context] } as ValueDesc })),
    },
  ),
})
const posts = fc.array(changing, { minLength: 1, maxLength: 2 })
/** On a failure PST-1 allows two changes (a value replacement is PST-2's): a block and new content. */
const changingAFailure: fc.Arbitrary<PostSpec> = fc.record({
  timing: fc.constantFrom('sync' as const, 'await' as const),
  decision: fc.oneof(
    { weight: 4, arbitrary: contentDesc.filter(isValidContent).map((feedback): DecisionSpec => ({ kind: 'returns', value: { kind: 'block', feedback } })) },
    { weight: 1, arbitrary: contentDesc.filter(isValidContent).map((content): DecisionSpec => ({ kind: 'returns', value: { kind: 'accept', content } })) },
    { weight: 1, arbitrary: postListener.map((p) => p.decision) },
  ),
})
/**
 * A succeeding tool whose output schema takes any JSON: every value a listener puts in place is valid and must be
 * rendered, and its meta (its JSON text's size) made again.
 */
const openTool = succeedingTool().map((t): ToolSpec => ({ ...t, outputSchema: ANY_SCHEMA, meta: { kind: 'json-text' } }))
const resurrecting: fc.Arbitrary<PostSpec[]> = fc
  .tuple(fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<DecisionSpec>(
        { kind: 'returns', value: { kind: 'accept', value: { ok: true } } },
        { kind: 'returns', value: { kind: 'accept', value: 1 } },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<DecisionSpec>(
        { kind: 'returns', value: { kind: 'accept', content: [{ type: 'text', text: 'all good' }] } },
        { kind: 'returns', value: { kind: 'accept' } },
      ),
    },
  ), fc.constantFrom('sync' as const, 'await' as const))
  .chain(([decision, timing]) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<PostSpec[]>([{ timing, decision }]) },
      // A hostile listener rewrites the failure it was handed into a success, then accepts it.
      {
        weight: 1,
        arbitrary: fc.constant<PostSpec[]>([{ timing, decision: { kind: 'returns', value: { kind: 'accept' } }, attack: { result: resurrectingWrites } }]),
      },
    ),
  )
/**
 * A replacement value holding -0, which a JSON round trip would write as 0: not lossless JSON, so
 * re-validation makes it an error. Put in place of the first listener's decision in a quarter of
 * the cases (unless it replaces the value already), drawn last so the rest of a case is what it was before.
 */
const negativeZeroValue = fc.constantFrom<DecisionSpec>(
  { kind: 'returns', value: { kind: 'accept', value: { $: 'negzero' } } },
  { kind: 'returns', value: { kind: 'accept', value: { n: { $: 'negzero' } } } },
  { kind: 'returns', value: { kind: 'accept', value: [1, { $: 'negzero' }] } },
)
/** A value replacement already drawn stays: the schema misfits find what skips re-validation. */
const replacesValue = (d: DecisionSpec | undefined) => d?.kind === 'returns' && typeof d.value === 'object' && d.value !== null && 'value' in d.value
const withFirstPost = (s: Scenario, decision: DecisionSpec): Scenario =>
  replacesValue(s.post[0]?.decision) ? s : { ...s, post: s.post.map((p, i) => (i === 0 ? { ...p, decision } : p)) }
/**
 * In a quarter of PST-3's scenario cases a listener for agent B replaces both value and content,
 * the value a falsy one (null, false, 0, ''), and B calls (withPostForAgentB): a registry that tests
 * for a value by truthiness or `!= null` misses the replacement. Drawn last.
 */
const falsyValue = fc.constantFrom<ValueDesc>(null, false, 0, '')
const bothReplacedForB = (s: Scenario, value: ValueDesc): Scenario =>
  withPostForAgentB(s, { kind: 'returns', value: { kind: 'accept', value, content: [{ type: 'text', text: 'x' }] } })
/**
 * In a quarter of PST-1's cases the first listener's decision carries an empty content list: no
 * blocks is a content replacement all the same, never "no content". Drawn last.
 */
const emptyContent = (s: Scenario): Scenario => withFirstPost(s, { kind: 'returns', value: { kind: 'accept', content: [] } })
/**
 * In a quarter of PST-1's cases the first call's tool returns a value and the first listener puts in
 * its place one that is not lossless JSON but reads as the same JSON text (a member undefined, -0 for
 * 0, a Date for its ISO text, a Map for {}): a replacement all the same, re-validated into an error.
 * A value replacement already drawn stays (the meta of a value put in place is checked there). Drawn last.
 */
const lookalikes = fc.constantFrom<[ValueDesc, ValueDesc]>(
  [{ n: 1 }, { n: 1, note: { $: 'undefined' } }],
  [0, { $: 'negzero' }],
  ['1970-01-01T00:00:00.000Z', { $: 'date' }],
  [{}, { $: 'map' }],
)
const withLookalikeReplacement = (s: Scenario, [value, lookalike]: [ValueDesc, ValueDesc]): Scenario => {
  if (replacesValue(s.post[0]?.decision)) return s
  const target = s.calls[0]?.tool
  const returning = (t: ToolSpec): ToolSpec => ({ ...t, outputSchema: ANY_SCHEMA, body: { steps: t.body.steps, outcome: { kind: 'return', value } } })
  const decision: DecisionSpec = { kind: 'returns', value: { kind: 'accept', value: lookalike } }
  return { ...s, tools: s.tools.map((t) => (t.name === target ? returning(t) : t)), post: s.post.map((p, i) => (i === 0 ? { ...p, decision } : p)) }
}
/**
 * In a quarter of PST-1's cases a call by agent B to a tool of its own (which renders its own text)
 * runs at once with the case's calls, and a listener for B, registered first, awaits and then puts
 * `{ replaced: true }` in place: the replacement is validated and rendered by B's call's tool,
 * however the calls' post-execute stages interleave. Drawn last.
 */
const OTHER = 'other_tool'
const replacementAtOnce = (s: Scenario): Scenario => {
  const [model] = s.tools
  if (!model) return s
  const succeeding = { steps: [], outcome: { kind: 'return', value: { ok: true } } } satisfies ToolSpec['body']
  const render: ToolSpec['render'] = { kind: 'returns', value: [{ type: 'text', text: `rendered by ${OTHER}` }] }
  const other = toolOfItsOwn(model, OTHER, { outputSchema: ANY_SCHEMA, body: succeeding, render, finalize: { kind: 'keep' } })
  const withB = withPostForAgentB(s, { kind: 'returns', value: { kind: 'accept', value: { replaced: true } } }, other)
  if (withB === s) return s
  const [forB, ...rest] = withB.post
  return { ...withB, post: [{ ...forB!, timing: 'await' }, ...rest], concurrent: true }
}
/**
 * In a quarter of PST-2's cases a gate ends every call before any body runs, a guard's denial or a
 * pre-execute listener's, registered first: the listeners that then put a success's value in place
 * meet an error no body made, and it stays one. Drawn last.
 */
const gates = fc.constantFrom<'guard' | 'pre-execute'>('guard', 'pre-execute')
const deniedAtAGate = (s: Scenario, gate: 'guard' | 'pre-execute'): Scenario => gate === 'guard'
  ? { ...s, guards: [{ verdict: { kind: 'returns', value: 'denied by a guard' } }, ...s.guards] }
  : { ...s, pre: [{ timing: 'sync', decision: { kind: 'returns', value: { kind: 'deny', reason: 'denied before any body' } } }, ...s.pre] }
/**
 * Output the tool's schema refuses, or that is not lossless JSON, paired with a schema a `{ ok: true }`
 * replacement satisfies: the failure is INVALID_TOOL_OUTPUT, which a value replacement must not repair.
 */
const refusedOutputs = fc.constantFrom<[ValueDesc, ValueDesc]>(
  [{ type: 'object', properties: { ok: { type: 'boolean' } } }, { ok: 'yes' }],
  [{ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, { done: true }],
  [ANY_SCHEMA, { ok: { $: 'nan' } }],
  [ANY_SCHEMA, { $: 'negzero' }],
)
/** The case's first tool fails by its output, and the first listener puts `{ ok: true }` in its place (drawn last). */
const failsByItsOutput = (s: Scenario, [outputSchema, value]: [ValueDesc, ValueDesc]): Scenario => {
  const [first, ...rest] = s.tools
  const [listener, ...others] = s.post
  if (!first || !listener) return s
  const repairing: PostSpec = { timing: listener.timing, decision: { kind: 'returns', value: { kind: 'accept', value: { ok: true } } } }
  const failing: ToolSpec = { ...first, outputSchema, body: { steps: first.body.steps, outcome: { kind: 'return', value } } }
  return { ...s, tools: [failing, ...rest], post: [repairing, ...others] }
}
const failingTool = tool().map((t): ToolSpec => (
  { ...t, outputSchema: ANY_SCHEMA, body: { steps: t.body.steps, outcome: { kind: 'throw', thrown: { $: 'error' } } } }
))

/**
 * In a quarter of PST-3's cases the only listeners are one that calls next() and then throws, around
 * one that accepts: the throw ends the call in error, whatever next() answered. Drawn last.
 */
const acceptedThenThrown = (s: Scenario): Scenario => ({
  ...s,
  post: [{ timing: 'await', decision: { kind: 'throws-after-next' } }, { timing: 'sync', decision: { kind: 'returns', value: { kind: 'accept' } } }],
})

/**
 * Malformed decisions a lenient reader takes for an accept: a kind in another case, padded or boxed, or an
 * accept replacing both value and content (read as a value replacement). Each ends in error (a
 * nearly-block shows nothing: a block ends in error too).
 */
const nearlyAccepts = fc.constantFrom<ValueDesc>(
  { kind: 'Accept' }, { kind: ' accept' }, { kind: 'ACCEPT' }, { kind: { $: 'boxed', value: 'accept' } },
  { kind: 'accept', value: 2, content: [{ type: 'text', text: 'both' }] }, { kind: 'accept', content: [], value: null },
)


/**
 * In half of PST-3's cases the first listener, for every caller, answers a decision that is nearly
 * an accept: an error all the same. Not where a listener throws after next(). Drawn last.
 */
const nearlyAcceptFirst = (s: Scenario, value: ValueDesc): Scenario => (s.post[0]?.decision.kind === 'throws-after-next' ? s : {
  ...s,
  post: s.post.map((p, i) => (i === 0 ? { timing: p.timing, decision: { kind: 'returns', value } } : p)),
})

export default [
  alongside(judged(
    'PST-1', 'post-execute listeners see the result frozen and may accept, replace content, replace value (re-validated, re-rendered) or block',
    fc.oneof(
      {
        weight: 3,
        arbitrary: scenario({
          ...quiet,
          tools: fc.array(
            fc.oneof({ weight: 3, arbitrary: succeedingTool() }, { weight: 3, arbitrary: openTool }, { weight: 1, arbitrary: tool() }),
            { minLength: 1, maxLength: 1 },
          ),
          post: posts,
        }).chain(nowAndThenWith(negativeZeroValue, withFirstPost)).chain(nowAndThen(emptyContent))
          .chain(nowAndThenWith(lookalikes, withLookalikeReplacement)).chain(nowAndThen(replacementAtOnce)),
      },
      // A failing tool whose listeners block or put new content in place: PST-1's rules on an error.
      {
        weight: 1,
        arbitrary: scenario({
          ...quiet,
          tools: fc.array(failingTool, { minLength: 1, maxLength: 1 }),
          post: fc.array(changingAFailure, { minLength: 1, maxLength: 2 }),
        }),
      },
    ),
  ), emptyBlock, { bodies: ['succeeds', 'throws'] }),
  judged(
    'PST-2', 'no resurrection: a post-execute listener cannot turn an error outcome into a success',
    scenario({
      ...quiet,
      tools: fc.array(fc.oneof({ weight: 3, arbitrary: failingTool }, { weight: 1, arbitrary: tool() }), { minLength: 1, maxLength: 1 }),
      pre: fc.array(preListener(), { maxLength: 2 }),
      post: resurrecting,
    }).chain(nowAndThenWith(gates, deniedAtAGate)).chain(nowAndThenWith(refusedOutputs, failsByItsOutput, 2)),
  ),
  withDirect(judged(
    'PST-3',
    'a decision replacing both value and content, a malformed decision, or a throwing listener ends in error, even ' +
      'when an outer listener accepts after next()',
    scenario({
      ...quiet,
      tools: fc.array(fc.oneof({ weight: 3, arbitrary: succeedingTool() }, { weight: 1, arbitrary: tool() }), { minLength: 1, maxLength: 1 }),
      post: fc.array(fc.record({
        timing: fc.constantFrom('sync' as const, 'await' as const),
        decision: fc.constantFrom<DecisionSpec>(
          { kind: 'throws' }, { kind: 'rejects' },
          { kind: 'returns', value: { kind: 'accept', value: 1, content: [{ type: 'text', text: 'x' }] } },
          { kind: 'returns', value: { kind: 'allow' } }, { kind: 'returns', value: null }, { kind: 'returns', value: { kind: 'block' } },
          { kind: 'returns', value: { kind: 'accept', content: 'text' } }, { kind: 'returns', value: { $: 'undefined' } },
          { kind: 'returns', value: { kind: 'accept', additionalContexts: [{ role: 'assistant', content: [] }] } },
          { kind: 'returns', value: { kind: 'accept', additionalContexts: 'not a list' } }, {
            kind: 'returns',
            value: { kind: 'block', feedback: [{ type: 'text', text: 'no' }], additionalContexts: [null] },
          },
          { kind: 'returns', value: { kind: 'accept', additionalContexts: [{ role: 'user', content: [{ type: 'text', text: 'x' }], bad: { $: 'bigint' } }] } },
          // new String('accept'): loosely equal to the kind, never exactly.
          { kind: 'returns', value: { kind: { $: 'boxed', value: 'accept' }, value: 1 } },
          { kind: 'returns', value: { kind: { $: 'boxed', value: 'accept' } } },
        ),
      }), { minLength: 1, maxLength: 2 }),
    }).chain(nowAndThenWith(falsyValue, bothReplacedForB)).chain(nowAndThen(acceptedThenThrown))
      .chain(nowAndThenWith(nearlyAccepts, nearlyAcceptFirst, 2)),
  ), bothDirect(postOverridden, lateRejection('PST-3'))),
]
