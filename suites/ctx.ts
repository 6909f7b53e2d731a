/** CTX: deferContext and concludeTurn. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  bodyStep,
  contextDesc,
  nowAndThen,
  nowAndThenWith,
  withPostForAgentB,
  postListener,
  quiet,
  scenario,
  succeedingTool,
  tool,
  toolOfItsOwn,
  validOutput,
  withNested,
  type BodyStep,
  type DecisionSpec,
  type PostSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
  inFlightAtOnce,
} from '../harness/property/vocabulary.js'
import { judged } from '../harness/property/scenario-property.js'
import { concludingPrograms } from './ctx-concluding-programs.js'
import { alongside } from './with-direct.js'
import { nestedContexts } from './ctx-nested-contexts.js'
import { contextsAfterPost } from './ctx-after-post.js'

const deferring = tool().chain((t) =>
  fc.array(
    fc.oneof(bodyStep, contextDesc.map((context): BodyStep => ({ kind: 'defer', context }))),
    { minLength: 1, maxLength: 4 },
  ).map((steps): ToolSpec => ({ ...t, body: { ...t.body, steps } })),
)
/**
 * The body a plain function, not an async one: it defers what it defers, then throws synchronously.
 * Its contexts still reach the tool error (CTX-1). Steps that wait are dropped; one defer at least.
 */
const BEFORE_A_THROW: ValueDesc = { role: 'user', content: [{ type: 'text', text: 'deferred before a throw' }] }
const plainThrowing = (s: Scenario): Scenario => ({
  ...s,
  tools: s.tools.map((t) => {
    const steps = t.body.steps.filter((step) => step.kind === 'defer' || step.kind === 'conclude')
    const deferring = steps.some((step) => step.kind === 'defer') ? steps : [...steps, { kind: 'defer', context: BEFORE_A_THROW } as const]
    return { ...t, body: { plain: true, steps: deferring, outcome: { kind: 'throw', thrown: { $: 'error' } } } }
  }),
})
/** The body rewrites each message after deferring it: the outcome carries each as it was passed (CTX-1). */
const changedAfterDeferring = (s: Scenario): Scenario => ({
  ...s,
  tools: s.tools.map((t) => ({
    ...t,
    body: { ...t.body, steps: t.body.steps.map((step) => (step.kind === 'defer' ? { ...step, changeAfter: true as const } : step)) },
  })),
})
/**
 * A wrapper that awaits next() and then returns a made-up result of its own, a success (every tool's
 * output schema taking any JSON) or an error: the body ran, and its contexts stay with the result
 * that replaced its own (CTX-1). In a third of the cases, drawn last.
 */
const madeUpResults = fc.constantFrom<ValueDesc>(
  { isError: false, value: { made: 'up' } },
  { isError: true, error: { message: 'made up after the body' }, content: [] },
)
const madeUpAfterTheBody = (s: Scenario, result: ValueDesc): Scenario => ({
  ...s,
  tools: s.tools.map((t) => ({ ...t, outputSchema: ANY_SCHEMA })),
  wrappers: [{ timing: 'sync', action: { kind: 'made-up-after-next', result } }],
})
const addConclude = (t: ToolSpec): ToolSpec => ({ ...t, body: { ...t.body, steps: [...t.body.steps, { kind: 'conclude' }] } })
const concluding = fc.oneof(succeedingTool(), tool()).map(addConclude)
/** A succeeding body that keeps its run context and concludes through it only after it returned: no conclusion. */
const concludingLate = succeedingTool().map((t): ToolSpec => ({ ...t, body: { ...t.body, steps: [...t.body.steps, { kind: 'conclude-later' }] } }))
/**
 * The same, waiting first, for calls that run side by side: a context saved by one call, used while
 * another call of the same tool runs, must not conclude that other call either.
 */
const waitingThenConcludingLate = succeedingTool().map((t): ToolSpec => (
  { ...t, body: { ...t.body, steps: [{ kind: 'await' }, { kind: 'await' }, { kind: 'conclude-later' }] } }
))
/** A body that dispatches a nested call whose success concludes: the body forwards that conclusion. */
const nestedConcluding = withNested(
  fc.oneof({ weight: 3, arbitrary: succeedingTool().map(addConclude) }, { weight: 1, arbitrary: fc.oneof(concluding, tool()) }),
  fc.oneof(succeedingTool(), tool()),
)

/** Post-execute listeners that replace the result (a new value, a block): the body's contexts must survive it. */
const replacingPost: fc.Arbitrary<PostSpec> = fc.record({
  timing: fc.constantFrom('sync' as const, 'await' as const),
  decision: fc.oneof(
    validOutput.map((o): DecisionSpec => ({ kind: 'returns', value: { kind: 'accept', value: o.value } })),
    fc.constant<DecisionSpec>({ kind: 'returns', value: { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] } }),
  ),
})

/** The case with `steps` put first in its first tool's body. */
const firstDefersFirst = (steps: BodyStep[]) => (s: Scenario): Scenario => ({
  ...s,
  tools: s.tools.map((t, i) => (i === 0 ? { ...t, body: { ...t.body, steps: [...steps, ...t.body.steps] } } : t)),
})

const twice: ValueDesc = { role: 'user', content: [{ type: 'text', text: 'said twice' }] }
/** In a quarter of CTX-1's cases the body defers one context twice: both appear (drawn last). */
const deferringTwice = firstDefersFirst([{ kind: 'defer', context: twice }, { kind: 'defer', context: twice }])
/** A user message holding an image: a UserMessage like any other, which appears as it was deferred. */
const imageContext: ValueDesc = { role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: 'AA==' }] }
/** In a quarter of CTX-1's cases the body defers a message holding an image first (drawn last). */
const deferringImage = firstDefersFirst([{ kind: 'defer', context: imageContext }])
/**
 * In a quarter of CTX-1's cases the body first defers a run of numbered messages, 9 to 16 of them, as
 * a long task reporting progress does: every one appears, in order (no buffer may drop the first). Drawn last.
 */
const progressRun = fc.integer({ min: 9, max: 16 })
const deferringMany = (s: Scenario, n: number): Scenario => firstDefersFirst(Array.from({ length: n }, (_, i): BodyStep => (
  { kind: 'defer', context: { role: 'user', content: [{ type: 'text', text: `step ${i + 1}` }] } }
)))(s)

/**
 * In a quarter of CTX-2's scenario cases a call of a tool whose body concludes comes first, and
 * post-execute replaces its value with the one that body returns (valid for its schema): a replaced
 * success of a body that concluded still concludes the turn (drawn last).
 */
function valueReplaced(s: Scenario): Scenario {
  const concludes = s.tools.find((t) => t.body.outcome.kind === 'return' && t.body.steps.some((step) => step.kind === 'conclude'))
  const outcome = concludes?.body.outcome
  if (outcome?.kind !== 'return') return s
  const decision: DecisionSpec = { kind: 'returns', value: { kind: 'accept', value: outcome.value } }
  return { ...s, post: [{ timing: 'sync', decision }], calls: [{ tool: concludes!.name, args: {} }, ...s.calls] }
}

/**
 * In a quarter of CTX-1's cases a post-execute listener for agent B accepts, adding a context of its
 * own, and B calls a tool of its own that defers one (withPostForAgentB): the deferred context stays
 * on the outcome beside the added one. Drawn last.
 */
const fromPost: ValueDesc = { role: 'user', content: [{ type: 'text', text: 'from post-execute' }] }
const fromBody: ValueDesc = { role: 'user', content: [{ type: 'text', text: 'from the body' }] }
function postAddsContext(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model) return s
  const deferrer = toolOfItsOwn(model, 'deferrer', { body: { steps: [{ kind: 'defer', context: fromBody }], outcome: model.body.outcome } })
  return withPostForAgentB(s, { kind: 'returns', value: { kind: 'accept', additionalContexts: [fromPost] } }, deferrer)
}

/**
 * In a quarter of CTX-2's scenario cases two more calls share one callId, one after the other: the
 * first to a tool whose body concludes and then throws, the second to a tool that succeeds without
 * concluding. A conclusion kept by callId would mark the second. Drawn last.
 */
function concludedThenFailed(s: Scenario, model: ToolSpec): Scenario {
  if (s.tools.some((t) => t.name === 'concluder' || t.name === 'after')) return s
  const steps = model.body.steps.filter((step) => step.kind !== 'conclude' && step.kind !== 'conclude-later')
  const concluder = toolOfItsOwn(model, 'concluder', { body: { steps: [{ kind: 'conclude' }], outcome: { kind: 'throw', thrown: { $: 'error' } } } })
  const after = toolOfItsOwn(model, 'after', { body: { ...model.body, steps } })
  const { concurrent: _concurrent, ...sequential } = s
  const calls = [...s.calls, { tool: 'concluder', args: {} }, { tool: 'after', args: {}, sameCallIdAs: s.calls.length }]
  return { ...sequential, tools: [...s.tools, concluder, after], calls }
}

/**
 * In a quarter of CTX-2's scenario cases a tool of its own concludes and succeeds, and its finalizer
 * puts new content in place; it is called last. The finalizer's content changes nothing else: the
 * outcome still concludes the turn. Drawn last.
 */
function concludedThenFinalized(s: Scenario, model: ToolSpec): Scenario {
  if (s.tools.some((t) => t.name === 'finalized')) return s
  const finalized = toolOfItsOwn(model, 'finalized', {
    outputSchema: ANY_SCHEMA,
    body: { steps: [{ kind: 'conclude' }], outcome: { kind: 'return', value: { ok: true } } },
    finalize: { kind: 'returns', value: [{ type: 'text', text: 'finalized' }] },
  })
  return { ...s, tools: [...s.tools, finalized], calls: [...s.calls, { tool: 'finalized', args: {} }] }
}

/**
 * In a quarter of CTX-2's cases a wrapper, registered first, hands next() a signal of its own (as the
 * timeout policy does for a tool with a timeoutMs): the body's run context is built for that signal,
 * and a conclusion made through it is the call's all the same. Drawn last.
 */
const signalReplacedAbove = (s: Scenario): Scenario => ({ ...s, wrappers: [{ timing: 'sync', action: { kind: 'replace-signal' } }, ...s.wrappers] })

export default [
  alongside(alongside(judged(
    'CTX-1',
    'contexts passed to deferContext appear, in order, in the outcome\'s additionalContexts, on success and on a ' +
      'tool error alike — also when post-execute replaces the result',
    scenario({ ...quiet, tools: fc.array(deferring, { minLength: 1, maxLength: 1 }), post: fc.array(fc.oneof(postListener, replacingPost), { maxLength: 1 }) })
      .chain(nowAndThen(deferringTwice))
      .chain(nowAndThen(postAddsContext))
      .chain(nowAndThen(plainThrowing))
      .chain(nowAndThen(changedAfterDeferring))
      // In a third of the cases more: calls in flight at once keep their deferred contexts apart.
      .chain(nowAndThen(inFlightAtOnce, 3))
      .chain(nowAndThenWith(madeUpResults, madeUpAfterTheBody, 3))
      .chain(nowAndThen(deferringImage))
      .chain(nowAndThenWith(progressRun, deferringMany)),
  ), nestedContexts, { inner: ['succeeds', 'throws'] }), contextsAfterPost, { changes: ['value', 'block', 'content'] }),
  judged(
    'CTX-2', 'concludesTurn is true if and only if the outcome is a success of a call whose body concluded (itself, or by forwarding a nested conclusion)',
    fc.oneof(
      {
        weight: 4,
        arbitrary: scenario({
          ...quiet,
          tools: fc.oneof(
            { weight: 1, arbitrary: fc.uniqueArray(fc.oneof(concluding, succeedingTool(), tool()), { minLength: 1, maxLength: 2, selector: (t) => t.name }) },
            { weight: 2, arbitrary: nestedConcluding },
            { weight: 2, arbitrary: fc.array(concludingLate, { minLength: 1, maxLength: 1 }) },
          ),
          // A listener that delegates is where a conclusion made after the body returned would land.
          post: fc.oneof(fc.array(postListener, { maxLength: 1 }), fc.constant<PostSpec[]>([{ timing: 'sync', decision: { kind: 'delegate' } }])),
          calls: { max: 2 },
        }).chain(nowAndThen(valueReplaced)).chain(nowAndThenWith(succeedingTool(), concludedThenFailed))
          .chain(nowAndThenWith(succeedingTool(), concludedThenFinalized)).chain(nowAndThen(signalReplacedAbove)),
      },
      {
        weight: 1,
        arbitrary: scenario({
          ...quiet,
          tools: fc.array(waitingThenConcludingLate, { minLength: 1, maxLength: 1 }),
          post: fc.constant<PostSpec[]>([{ timing: 'sync', decision: { kind: 'delegate' } }]),
          concurrent: true,
          calls: { max: 3 },
        }),
      },
    ),
  ),

  concludingPrograms,
]
