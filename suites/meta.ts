/** META: nothing non-serialisable is published. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  contentDesc,
  contextDesc,
  defaults,
  isLosslessDesc,
  madeUpNonLosslessMeta,
  nowAndThen,
  nowAndThenWith,
  poisoned,
  postListener,
  quiet,
  scenario,
  smugglingFinalizer,
  succeedingTool,
  tool,
  toolOfItsOwn,
  unserialisable,
  type DecisionSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { readOnce } from './meta-read-once.js'
import { withDirect } from './with-direct.js'

/** A tool that smuggles an unserialisable value through one of its channels. */
/** Lossless JSON that is still not a user message (META-1 publishes only well-shaped contexts). */
const notAUserMessages: ValueDesc[] = [
  null,
  'hello',
  { role: 'assistant', content: [] },
  { role: 'user', content: [{ type: 'video' }] },
  { role: 'user', content: [{ type: 'text', text: 'ok' }, null] },
  { role: 'user', content: 'text' },
]
/**
 * A meta holding a cycle, more often than one leaf in sixteen: a registry's walker that keeps a
 * visited set for shared subtrees is the classic way to let a cycle through as "already copied".
 */
const cyclic: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>({ $: 'cycle' }, { k: { $: 'cycle' } }, { outer: { k: { $: 'cycle' } } })
/** A meta holding -0, which JSON.stringify writes as 0: a lossless test built on a JSON round trip lets it by. */
const negativeZero: fc.Arbitrary<ValueDesc> = fc.constantFrom<ValueDesc>({ $: 'negzero' }, { n: { $: 'negzero' } }, { sizes: [1, { $: 'negzero' }] })
const smuggling: fc.Arbitrary<ToolSpec> = fc.tuple(
  succeedingTool(),
  fc.constantFrom(0, 0, 0, 1, 2, 3), // the meta channel three times as often: it alone carries whole values
  fc.oneof(poisoned, { weight: 3, arbitrary: cyclic }, { weight: 2, arbitrary: negativeZero }),
  unserialisable,
  fc.option(fc.constantFrom(...notAUserMessages), { nil: undefined }),
).map(([t, channel, bad, leaf, notAUserMessage]): ToolSpec => {
  const misshapen = notAUserMessage !== undefined
  const base: ToolSpec = { ...t, outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value: 1 } } }
  if (channel === 0) return { ...base, meta: { kind: 'returns', value: bad } }
  if (channel === 1) return { ...base, render: { kind: 'returns', value: [{ type: 'text', text: 'x', bad: leaf }] } }
  if (channel === 2) return {
    ...base,
    body: {
      steps: [{ kind: 'defer', context: misshapen ? notAUserMessage : { role: 'user', content: [{ type: 'text', text: 'x' }], bad: leaf } }],
      outcome: { kind: 'return', value: 1 },
    },
  }
  return { ...base, finalize: { kind: 'returns', value: [{ type: 'text', text: 'x', bad: leaf }] } }
})
const smugglingPost = unserialisable.map((leaf): DecisionSpec => (
  { kind: 'returns', value: { kind: 'accept', content: [{ type: 'text', text: 'x', bad: leaf }] } }
))

/**
 * A tool whose body returns a value holding a leaf JSON cannot hold (a Promise, a Map, BigInt…),
 * in a quarter of META-2's cases: a registry that publishes it as a success, serialised or not, fails.
 */
const lossyReturning: fc.Arbitrary<ToolSpec> = fc.tuple(succeedingTool(), poisoned).map(([t, value]): ToolSpec => (
  { ...t, outputSchema: ANY_SCHEMA, body: { steps: [], outcome: { kind: 'return', value } } }
))

/**
 * In a quarter of META-1's cases one more call meets a tool of its own whose finalizer (one time in
 * two), render or deferred context holds a sparse array of valid blocks, and nothing else is wrong
 * with it: only a check of the array itself, not of each block, refuses the hole. Drawn last.
 */
const holeyBlocks: ValueDesc = { $: 'sparse', of: { type: 'text', text: 'block' } }
type HoleChannel = 'finalize' | 'render' | 'context'
const holeChannel = fc.constantFrom<HoleChannel>('finalize', 'finalize', 'render', 'context')
function withHoleyContent(s: Scenario, channel: HoleChannel): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === 'holey')) return s
  const clean = { outputSchema: ANY_SCHEMA, parameters: ANY_SCHEMA, render: { kind: 'json-text' } } satisfies Partial<ToolSpec>
  const { meta: _meta, finalize: _finalize, ...plain } = toolOfItsOwn(model, 'holey', clean)
  const returning = { steps: [], outcome: { kind: 'return', value: 1 } } satisfies ToolSpec['body']
  const holey: ToolSpec =
    channel === 'finalize' ? { ...plain, body: returning, finalize: { kind: 'returns', value: holeyBlocks } }
    : channel === 'render' ? { ...plain, body: returning, render: { kind: 'returns', value: holeyBlocks } }
    : { ...plain, body: { ...returning, steps: [{ kind: 'defer', context: { role: 'user', content: holeyBlocks } }] } }
  return { ...s, tools: [...s.tools, holey], calls: [...s.calls, { tool: 'holey', args: {} }] }
}

/**
 * In a third of META-1's cases the first tool's meta is one bare value JSON cannot hold, no
 * object around it (NaN, Infinity, -0, a BigInt, a function), and nothing else of the tool's or of
 * post-execute's is wrong: a scalar is checked like any meta. Drawn last.
 */
const bareScalar = fc.constantFrom<ValueDesc>({ $: 'nan' }, { $: 'infinity' }, { $: 'negzero' }, { $: 'bigint' }, { $: 'function' })
const withBareScalarMeta = (s: Scenario, meta: ValueDesc): Scenario => ({
  ...s,
  post: [],
  tools: s.tools.map(({ finalize: _finalize, ...t }, i): ToolSpec => (i > 0 ? t : {
    ...t, render: { kind: 'json-text' }, meta: { kind: 'returns', value: meta }, body: { steps: [], outcome: { kind: 'return', value: 1 } },
  })),
})

/**
 * In a quarter of META-2's cases the first tool's body concludes the turn and then throws, and no
 * listener or guard stands in the way: the error published carries no conclusion, not even a key
 * left undefined. A body returning a value JSON cannot hold is left as it is. Drawn last.
 */
const concludesThenThrows = (s: Scenario): Scenario => {
  const [first, ...rest] = s.tools
  if (!first || (first.body.outcome.kind === 'return' && !isLosslessDesc(first.body.outcome.value))) return s
  const body: ToolSpec['body'] = { steps: [...first.body.steps, { kind: 'conclude' }], outcome: { kind: 'throw', thrown: { $: 'error' } } }
  return { ...s, pre: [], guards: [], tools: [{ ...first, body }, ...rest] }
}

export default [
  judged(
    'META-1',
    'a meta, content, error or context that is not lossless JSON — from the tool, a wrapper, post-execute or the finalizer — ' +
      'turns the outcome into an error',
    scenario({
      ...quiet,
      tools: fc.array(fc.oneof({ weight: 3, arbitrary: smuggling }, { weight: 1, arbitrary: smugglingFinalizer }), { minLength: 1, maxLength: 1 }),
      post: fc.array(fc.oneof(postListener, smugglingPost.map((decision) => ({ timing: 'sync' as const, decision }))), { maxLength: 1 }),
    }).chain(nowAndThenWith(holeChannel, withHoleyContent)).chain(nowAndThenWith(bareScalar, withBareScalarMeta, 3)),
  ),
  withDirect(judged(
    'META-2', 'JSON.parse(JSON.stringify(outcome)) deep-equals every published outcome',
    scenario({
      tools: fc.array(
        // A tool that succeeds in a quarter of the cases: most other tools end in an error, and a
        // published success is what META-2 is about.
        fc.oneof({ weight: 2, arbitrary: tool() }, { weight: 1, arbitrary: succeedingTool() }, { weight: 1, arbitrary: lossyReturning })
          .map((t) => ({ ...t, finalize: { kind: 'returns' as const, value: [{ type: 'text', text: 'final' }] } })),
        { minLength: 1, maxLength: 1 },
      ),
      // Two cases in three have no pre-execute listener: the default listeners deny most calls.
      pre: fc.oneof(defaults.pre, { weight: 2, arbitrary: quiet.pre }),
      wrappers: fc.oneof(quiet.wrappers, defaults.wrappers, { weight: 2, arbitrary: fc.array(madeUpNonLosslessMeta, { minLength: 1, maxLength: 1 }) }),
      post: fc.array(
        fc.oneof(
          postListener,
          fc.tuple(contentDesc, contextDesc).map(([content, context]) => (
            { timing: 'sync' as const, decision: { kind: 'returns', value: { kind: 'accept', content, additionalContexts: [context] } } as DecisionSpec }
          )),
        ),
        { maxLength: 2 },
      ),
      calls: { max: 2 },
    }).chain(nowAndThen(concludesThenThrows)),
  ), readOnce, { everyLast: 5 }),
]
