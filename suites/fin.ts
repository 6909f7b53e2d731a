/** FIN: finalizeContent, the tool's last mile. */
import fc from 'fast-check'
import {
  ANY_SCHEMA,
  contentDesc,
  defaults,
  finalizer,
  guard,
  isContent,
  nowAndThen,
  nowAndThenWith,
  oddFinalizer,
  postListener,
  preDecision,
  preListener,
  quiet,
  scenario,
  succeedingTool,
  timing,
  tool,
  validOutput,
  wrapper,
  type DecisionSpec,
  type FinalizeSpec,
  type OutputChoice,
  type PostSpec,
  type Scenario,
  type ToolSpec,
  toolOfItsOwn,
  withNestedCallLast,
  withOddThrows,
} from '../harness/property/vocabulary.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolDefinition } from '../harness/contract/spec.js'
import { alongside } from './with-direct.js'
import { agentlessAsk } from './fin-agentless-ask.js'
import { oddArguments } from './fin-odd-arguments.js'

const finalizing = (f: fc.Arbitrary<FinalizeSpec>, scoped = true) =>
  fc.uniqueArray(
    fc.tuple(tool({ scoped }), f).map(([t, fin]): ToolSpec => ({ ...t, finalize: fin })),
    { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` },
  )

/**
 * In a quarter of FIN-2's cases a tool of the case's own, called last, first makes a nested call to
 * a tool with a finalizer (withNestedCallLast): a nested call's tool is visible to it, so its
 * finalizer runs once too. Drawn last.
 */
const withNestedFinalized = (s: Scenario): Scenario =>
  withNestedCallLast(s, { leaf: { finalize: { kind: 'returns', value: [{ type: 'text', text: 'finalized' }] } } })
/**
 * In a quarter of FIN-2's cases a tool of its own, whose finalizer throws, is called twice, last: a
 * finalizer that threw for one call still runs for the next (FIN-4's "not called again" is the
 * call's). Drawn last.
 */
const BRITTLE = 'brittle'
const throwingFinalizerTwice = (s: Scenario): Scenario => {
  const [model] = s.tools
  if (!model || s.tools.some((t) => t.name === BRITTLE)) return s
  const brittle = toolOfItsOwn(model, BRITTLE, { finalize: { kind: 'throws' } })
  return { ...s, tools: [...s.tools, brittle], calls: [...s.calls, { tool: BRITTLE, args: {} }, { tool: BRITTLE, args: {} }] }
}

/** Well-formed blocks: the finalizer replaces the content, and everything else must stay (FIN-3). */
const replacingBlocks = contentDesc.filter(isContent).map((value): FinalizeSpec => ({ kind: 'returns', value }))

/** Every tool defers a well-formed context first, so what the finalizer does to contexts shows. */
const deferringFirst = (t: ToolSpec, i: number): ToolSpec =>
  ({ ...t, body: { ...t.body, steps: [{ kind: 'defer', context: { role: 'user', content: [{ type: 'text', text: `context ${i}` }] } }, ...t.body.steps] } })

/**
 * Post-execute listeners ending with one that blocks: a blocked outcome is still finalized (FIN-2),
 * and the finalizer is handed the block, not the success before it (FIN-3: a quarter of its cases,
 * drawn last so the rest of a case is what it was before).
 */
const blockingLast: fc.Arbitrary<PostSpec[]> = fc
  .tuple(fc.array(postListener, { maxLength: 1 }), contentDesc.filter(isContent), timing)
  .map(([before, feedback, t]) => [...before, { timing: t, decision: { kind: 'returns', value: { kind: 'block', feedback } } as DecisionSpec }])

/** The first tool returning a valid value, rendered as its JSON text, and post-execute blocking it. */
function blockedSuccess(s: Scenario, [post, ok]: [PostSpec[], OutputChoice]): Scenario {
  const succeeding = (t: ToolSpec): ToolSpec => {
    const { meta: _meta, ...rest } = t
    return { ...rest, outputSchema: ok.schema, render: { kind: 'json-text' }, body: { steps: t.body.steps, outcome: { kind: 'return', value: ok.value } } }
  }
  return { ...s, post, tools: s.tools.map((t, i) => (i === 0 ? succeeding(t) : t)) }
}

/** Puts another finalizeContent on a registered definition object; one the registry froze keeps its own. */
function reassign(def: ToolDefinition, finalizeContent: () => void): void {
  try {
    ;(def as { finalizeContent?: unknown }).finalizeContent = finalizeContent
  } catch {
    // a frozen definition: nothing changed
  }
}

/**
 * In a quarter of FIN-2's cases the registry runs in `both` mode: a direct call to a native tool runs
 * as in native mode, so its outcome is finalized (only `code` mode hides it, CODE-1). Drawn last.
 */
const inBothModes = (s: Scenario): Scenario => (s.config.mode === 'code' || s.config.mode === 'both' ? s : { ...s, config: { ...s.config, mode: 'both' } })

export default [
  custom(
    'FIN-1',
    'a call resolves its tool\'s definition once, at entry: body, output and finalizer all come from it; ' +
      're-registering or disposing mid-call never mixes definitions, and only the entry finalizer runs, once',
    fc.record({
      when: fc.constantFrom('pre-execute', 'body'),
      then: fc.constantFrom('dispose', 'replace', 'reassign'),
    }),
    (c) => [
      'tool swapped: definition "first", with its own body, render and finalizer',
      `${c.when === 'body' ? 'while its body runs' : 'in a pre-execute listener'}, "first" ${
        c.then === 'dispose' ? 'is disposed'
        : c.then === 'replace' ? 'is disposed and replaced by a definition "second"'
        : 'has its finalizeContent reassigned, on the same definition object, to another callback'
      }`,
      'one call to swapped',
    ],
    async (ctx, c) => {
      const registry = await ctx.registry()
      const bodies: string[] = []
      const finalizers: string[] = []
      let dispose: () => void = () => undefined
      let first: ToolDefinition | undefined
      const definition = (label: string) => liveTool('swapped', {
        output: { schema: ANY_SCHEMA as JsonValue, render: () => [{ type: 'text', text: label }] },
        finalizeContent: () => void finalizers.push(label),
        execute: async () => {
          bodies.push(label)
          if (label === 'first' && c.when === 'body') swap()
          return { from: label }
        },
      })
      let refusedAnew = false
      const swap = () => {
        if (c.then === 'reassign') return reassign(first!, () => void finalizers.push('reassigned'))
        dispose()
        if (c.then !== 'replace') return
        try {
          registry.register(definition('second'))
        } catch {
          refusedAnew = true
        }
      }
      first = definition('first')
      dispose = registry.register(first)
      if (c.when === 'pre-execute') {
        registry.onPreExecute(async (_exec, next) => {
          swap()
          return next()
        })
      }
      const result = await registry.execute(input('swapped'))
      // A disposed name that cannot be registered anew breaks DEF-2 first, whatever the call did next.
      if (refusedAnew) return
      if (JSON.stringify(finalizers) !== '["first"]') ctx.fail(
        `finalizers that ran: ${JSON.stringify(finalizers)}, expected the one of the entry definition, once`,
      )
      if (bodies.some((b) => b !== 'first') || bodies.length > 1) return ctx.fail(
        `bodies that ran: ${JSON.stringify(bodies)}, expected only the entry definition's`,
      )
      // Disposal (never re-registration) may end the call as UNKNOWN_TOOL; otherwise it finishes with its entry definition.
      if (result.isError && codeOf(registry, result) === 'UNKNOWN_TOOL') {
        if (c.then !== 'dispose') ctx.fail(`a call whose tool was ${c.then === 'replace' ? 're-registered' : 'changed'} mid-call became UNKNOWN_TOOL`)
        return
      }
      if (bodies.length !== 1) return ctx.fail(`the entry definition's body ran ${bodies.length} times and the call did not end as UNKNOWN_TOOL`)
      if (result.isError) return ctx.fail(`the call ended as an error (${codeOf(registry, result)}), expected the entry definition's success`)
      const content = JSON.stringify(result.content)
      if (content !== '[{"type":"text","text":"first"}]') ctx.fail(`the content ${content} was not rendered by the entry definition's output`)
    },
  ),
  alongside(alongside(judged(
    'FIN-2', 'finalizeContent is invoked exactly once for every outcome of a call whose tool was visible at entry',
    scenario({
      tools: finalizing(finalizer),
      pre: fc.array(preListener(preDecision({ malformed: 2, failing: 6 })), { minLength: 1, maxLength: 2 }),
      approval: defaults.approval,
      post: fc.oneof(defaults.post, blockingLast),
      calls: { max: 2, abortAtEntry: 15, abortScheduled: 15, agents: true, unknownNames: true },
    }).chain(nowAndThen(withNestedFinalized)).chain(nowAndThen(throwingFinalizerTwice)).chain(nowAndThen(inBothModes)),
  ), agentlessAsk, { approvals: ['allowed-once', 'rejected', 'none'], post: true }), oddArguments, { args: ['a BigInt inside', 'null'] }),
  judged(
    'FIN-3', 'the finalizer gets the frozen result; undefined keeps the content, blocks replace only content, and contexts stay even when it throws',
    scenario({
      tools: finalizing(
        fc.oneof(
          fc.constant<FinalizeSpec>({ kind: 'keep' }),
          finalizer,
          fc.constant<FinalizeSpec>({ kind: 'throws' }),
          { weight: 2, arbitrary: oddFinalizer },
          replacingBlocks,
          // No blocks replaces the content with none: not the same as undefined.
          fc.constant<FinalizeSpec>({ kind: 'returns', value: [] }),
        ),
        false,
      ).map((tools) => tools.map(deferringFirst)),
      pre: fc.array(preListener(), { maxLength: 1 }),
      guards: fc.array(guard, { maxLength: 1 }),
      wrappers: fc.array(wrapper, { maxLength: 1 }),
      post: fc.array(postListener, { maxLength: 1 }),
      calls: { max: 2 },
    }).chain(nowAndThenWith(fc.tuple(blockingLast, validOutput), blockedSuccess)),
  ),
  judged(
    'FIN-4', 'a finalizer that throws is not called again, execute still resolves, and the outcome is an error',
    scenario({
      ...quiet,
      tools: fc.array(fc.oneof(succeedingTool(), tool()).map((t): ToolSpec => ({ ...t, finalize: { kind: 'throws' } })), { minLength: 1, maxLength: 1 }),
      calls: { max: 2 },
    }).chain(withOddThrows(2)), // a finalizer throwing an odd value (a Symbol, an object with no prototype…) in half the cases
  ),
]
