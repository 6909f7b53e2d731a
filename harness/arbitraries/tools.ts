/**
 * Tool definitions as behaviour descriptors: classifier answers of every kind, bodies that await,
 * defer, conclude, return, throw or wait for their signal, projections and finalizers that behave
 * or misbehave, names that collide with Object.prototype, and unknown extra fields.
 */
import fc from 'fast-check'
import type { BodySpec, BodyStep, ClassifierSpec, ExtraField, FinalizeSpec, ProjectionSpec, ToolSpec, ValueDesc } from '../scenario/types.js'
import { ANY_SCHEMA, anyOutput, parametersSchema, validOutput } from './outputs.js'
import { contentDesc, contextDesc, jsonValue, textBlock, unserialisable } from './values.js'
import { bodyAttack, finalizeAttack } from './attacks.js'

export const toolName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('read_file', 'edit', 'search') },
  { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf') },
)

/**
 * A classifier that answers from its argument (true when it holds `path`, `n` or `q`, keys the
 * generated calls' arguments use): what the registry hands it must be the call's arguments.
 */
export const argumentClassifier: fc.Arbitrary<ClassifierSpec> = fc.constantFrom('path', 'n', 'q').map((key) => ({ kind: 'has-key', key }))

/** Every kind of classifier answer (MODE-1, MODE-2). */
export const classifier: fc.Arbitrary<ClassifierSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<ClassifierSpec>({ kind: 'returns', value: true }) },
  { weight: 1, arbitrary: fc.constant<ClassifierSpec>({ kind: 'absent' }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<ValueDesc>(
        1,
        'true',
        {},
        [],
        false,
        null,
        { $: 'undefined' },
        { $: 'promise', value: true },
        { $: 'boolean-object' },
        { $: 'getter', value: true },
      )
      .map((value) => ({ kind: 'returns', value }) as ClassifierSpec),
  },
  // A Promise of true: the answer an async-minded registry gets wrong (MODE-2).
  { weight: 8, arbitrary: fc.constant<ClassifierSpec>({ kind: 'returns', value: { $: 'promise', value: true } }) },
  { weight: 1, arbitrary: fc.constant<ClassifierSpec>({ kind: 'throws' }) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>(true, 'true', 1).map((value) => ({ kind: 'not-a-function', value }) as ClassifierSpec) },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>(true, 1).map((value) => ({ kind: 'getter-returns', value }) as ClassifierSpec) },
  { weight: 2, arbitrary: argumentClassifier },
)

export const bodyStep: fc.Arbitrary<BodyStep> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<BodyStep>({ kind: 'await' }) },
  { weight: 2, arbitrary: contextDesc.map((context) => ({ kind: 'defer', context }) as BodyStep) },
  { weight: 1, arbitrary: fc.constant<BodyStep>({ kind: 'conclude' }) },
)

/**
 * The structured details a failing tool attaches to its error (a reason, the field at fault, a
 * retry hint): JSON objects, which need not match the tool's output schema (they describe a failure).
 */
export const errorDetails: fc.Arbitrary<ValueDesc> = fc.oneof(
  fc.constantFrom<ValueDesc>({ reason: 'not_found' }, { field: 'path', issue: 'missing' }, { retryAfterMs: 100 }, {}, { n: 1 }),
  fc.dictionary(fc.constantFrom('reason', 'detail', 'n'), jsonValue, { minKeys: 1, maxKeys: 2 }),
)

/** What a body throws: Errors with and without a code or structured details, and values that are not Errors at all. */
export const thrown: fc.Arbitrary<ValueDesc> = fc.oneof(
  fc.constant<ValueDesc>({ $: 'error' }),
  fc.constantFrom('E_TOOL', 'ENOENT').map((code) => ({ $: 'error', code }) as ValueDesc),
  {
    weight: 2,
    arbitrary: fc.tuple(fc.option(fc.constantFrom('E_TOOL', 'E_RATE_LIMITED'), { nil: undefined }), errorDetails).map(
      ([code, data]) => (code === undefined ? { $: 'error', data } : { $: 'error', code, data }) as ValueDesc,
    ),
  },
  fc.constantFrom<ValueDesc>('a string', 42, null, { $: 'undefined' }, { message: 'plain object' }),
)

export interface BodyChoice {
  body: BodySpec
  schema: ValueDesc
}

/** A body and an output schema for it; `longRunning` allows bodies that wait for their signal. */
export const body = (longRunning = false): fc.Arbitrary<BodyChoice> =>
  fc.tuple(fc.array(bodyStep, { maxLength: 3 }), anyOutput, thrown, fc.nat(9)).map(([steps, output, error, pick]) => {
    const outcome: BodySpec['outcome'] =
      pick < 6
        ? { kind: 'return', value: output.value }
        : pick === 6
          ? { kind: 'throw', thrown: error }
          : pick === 7 || !longRunning
            ? { kind: 'reject', thrown: error }
            : { kind: 'until-aborted', value: output.value }
    return { body: { steps, outcome }, schema: output.schema }
  })

/** A render that rewrites the content it returned after returning it (OUT-2: content is a snapshot). */
export const mutatingRender: fc.Arbitrary<ProjectionSpec> = fc
  .array(textBlock, { minLength: 1, maxLength: 2 })
  .map((value) => ({ kind: 'returns', value, mutateAfter: true }) as ProjectionSpec)

export const projection = (content: boolean): fc.Arbitrary<ProjectionSpec> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<ProjectionSpec>({ kind: 'json-text' }) },
    { weight: 2, arbitrary: (content ? contentDesc : fc.oneof(jsonValue, unserialisable)).map((value) => ({ kind: 'returns', value }) as ProjectionSpec) },
    // A projection that rewrites what it returned after returning it (hostile hooks).
    {
      weight: 1,
      arbitrary: (content ? fc.array(textBlock, { minLength: 1, maxLength: 2 }) : jsonValue).map(
        (value) => ({ kind: 'returns', value, mutateAfter: true }) as ProjectionSpec,
      ),
    },
    { weight: 1, arbitrary: fc.constant<ProjectionSpec>({ kind: 'throws' }) },
  )

const oddFinalizerReturns: ValueDesc[] = [
  { isError: false, value: 2, content: [{ type: 'text', text: 'from the finalizer' }] },
  { isError: true, error: { message: 'from the finalizer' }, content: [] },
  { content: [{ type: 'text', text: 'from the finalizer' }], value: 3 },
  { error: { message: 'from the finalizer' } },
]

export const finalizer: fc.Arbitrary<FinalizeSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<FinalizeSpec>({ kind: 'keep' }) },
  { weight: 2, arbitrary: contentDesc.map((value) => ({ kind: 'returns', value }) as FinalizeSpec) },
  // No blocks is content too: it replaces the content, unlike undefined.
  { weight: 1, arbitrary: fc.constantFrom<FinalizeSpec>({ kind: 'returns', value: { $: 'undefined' } }, { kind: 'returns', value: [] }) },
  { weight: 1, arbitrary: fc.constant<FinalizeSpec>({ kind: 'throws' }) },
  { weight: 1, arbitrary: fc.constantFrom(...oddFinalizerReturns).map((value) => ({ kind: 'returns', value }) as FinalizeSpec) },
)

/** A finalizer returning an object that carries a result's own fields, which only the registry sets (FIN-3). */
export const oddFinalizer: fc.Arbitrary<FinalizeSpec> = fc.constantFrom(...oddFinalizerReturns).map((value) => ({ kind: 'returns', value }))

/** Sometimes the body writes on its run context, or the finalizer on what it is handed. */
const toolAttack = fc.option(
  fc.record({ body: fc.option(bodyAttack, { nil: undefined }), finalize: fc.option(finalizeAttack, { nil: undefined }) }).map((a) => {
    const attack: NonNullable<ToolSpec['attack']> = {}
    if (a.body) attack.body = a.body
    if (a.finalize && Object.keys(a.finalize).length > 0) attack.finalize = a.finalize
    return attack
  }),
  { nil: undefined, freq: 3 },
)

export const extraField: fc.Arbitrary<ExtraField> = fc.record({
  key: fc.constantFrom('annotations', 'secret', 'timeoutMs2', 'strict', 'internalId'),
  symbol: fc.boolean(),
  enumerable: fc.boolean(),
  value: fc.oneof(jsonValue, unserialisable),
})

export interface ToolOptions {
  name?: fc.Arbitrary<string>
  longRunning?: boolean
  scoped?: boolean
  define?: boolean
}

export const tool = (options: ToolOptions = {}): fc.Arbitrary<ToolSpec> =>
  fc
    .record({
      name: options.name ?? toolName,
      scope: options.scoped ? fc.option(fc.constantFrom<'A' | 'B'>('A', 'B'), { nil: undefined }) : fc.constant(undefined),
      classifier,
      body: body(options.longRunning),
      render: projection(true),
      meta: fc.option(projection(false), { nil: undefined }),
      finalize: fc.option(finalizer, { nil: undefined, freq: 4 }),
      extra: fc.option(fc.array(extraField, { maxLength: 2 }), { nil: undefined }),
      define: options.define ? fc.boolean() : fc.constant(false),
      parameters: options.define ? parametersSchema : fc.constant<ValueDesc>({ type: 'object' }),
      attack: toolAttack,
    })
    .map(({ body: b, scope, meta, finalize, extra, define, attack, ...rest }) => {
      const spec: ToolSpec = { ...rest, description: `The ${rest.name} tool.`, outputSchema: b.schema, body: b.body }
      if (scope) spec.scope = scope
      if (meta) spec.meta = meta
      if (finalize) spec.finalize = finalize
      if (extra && extra.length > 0) spec.extra = extra
      if (define) spec.define = true
      if (attack && Object.keys(attack).length > 0) spec.attack = attack
      return spec
    })

/** A simple tool that succeeds: the base that other features vary around. */
export const plainTool = (name = 'read_file'): ToolSpec => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object' },
  outputSchema: ANY_SCHEMA,
  classifier: { kind: 'absent' },
  body: { steps: [], outcome: { kind: 'return', value: { ok: true } } },
  render: { kind: 'json-text' },
  finalize: { kind: 'keep' },
})

export const validValue = validOutput

/** A tool whose body succeeds with a valid value and plain projections: outcomes other hooks can change. */
export const succeedingTool = (options: ToolOptions = {}): fc.Arbitrary<ToolSpec> =>
  fc.tuple(tool(options), validOutput).map(([t, output]): ToolSpec => {
    const { finalize: _finalize, meta: _meta, ...rest } = t
    return {
      ...rest,
      outputSchema: output.schema,
      render: { kind: 'json-text' },
      body: { steps: t.body.steps.filter((s) => s.kind !== 'defer'), outcome: { kind: 'return', value: output.value } },
    }
  })

/**
 * A composite tool whose body dispatches nested calls (`parent: exec.token`, as a program's SDK
 * does) to the other tool, a leaf, once or twice: CODE-2's nesting in any mode (ADAPTER.md).
 */
export const withNested = (leaf: fc.Arbitrary<ToolSpec>, outer: fc.Arbitrary<ToolSpec> = tool()): fc.Arbitrary<ToolSpec[]> =>
  fc
    .tuple(outer, leaf, fc.nat(3), fc.boolean())
    .filter(([o, l]) => o.name !== l.name)
    .map(([o, l, at, twice]): ToolSpec[] => {
      const dispatch: BodyStep = { kind: 'dispatch', tool: l.name, args: { q: 'nested' } }
      const steps = [...o.body.steps]
      steps.splice(Math.min(at, steps.length), 0, dispatch)
      if (twice) steps.push(dispatch)
      return [{ ...o, body: { ...o.body, steps } }, l]
    })

/** A succeeding tool whose finalizer returns content that is not lossless JSON (META-1 at the finalizer). */
export const smugglingFinalizer: fc.Arbitrary<ToolSpec> = fc
  .tuple(succeedingTool(), unserialisable)
  .map(([t, bad]): ToolSpec => ({ ...t, finalize: { kind: 'returns', value: [{ type: 'text', text: 'x', bad }] } }))

/**
 * A tool of a case's own, added by a reach drawn last: `model` (a tool the case drew) under another
 * name, global, without hostile writes, with `changes` on top.
 */
export function toolOfItsOwn(model: ToolSpec, name: string, changes: Partial<ToolSpec>): ToolSpec {
  const { attack: _attack, scope: _scope, ...plain } = model
  return { ...plain, name, ...changes }
}

/** The name a reach gives a global tool of its own that agent A shadows with one of its own. */
export const SHADOWED = 'shadowed'

/**
 * Two tools of a case's own under one name, `SHADOWED`: a global one with `global` on top, and
 * agent A's, which shadows it for A, with `own` on top.
 */
export function shadowedForA(model: ToolSpec, global: Partial<ToolSpec>, own: Partial<ToolSpec>): [ToolSpec, ToolSpec] {
  return [toolOfItsOwn(model, SHADOWED, global), { ...toolOfItsOwn(model, SHADOWED, own), scope: 'A' }]
}
