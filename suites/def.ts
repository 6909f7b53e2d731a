/** DEF: the definition and its three layers. */
import fc from 'fast-check'
import {
  PARAMETER_SCHEMAS,
  buildValue,
  invalidArguments,
  nowAndThen,
  nowAndThenWith,
  parameterCase,
  poisoned,
  scenario,
  schemaArbitrary,
  tool,
  toolName,
  toolOfItsOwn,
  valueWords,
  type CallSpec,
  type Scenario,
  type ToolSpec,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { codeOf, custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ToolDefinition } from '../harness/contract/spec.js'
import type { RegistryUnderTest, ScopeOption } from '../harness/contract/adapter.js'
import { disposedInOneLayer, twoLayersStory } from './def-two-layers.js'

/**
 * In half of DEF-5's cases the tool declares richer parameters (overlapping oneOf branches, enums,
 * nested required keys) and a classifier answering true, no hook stands in the way, and each call
 * carries arguments drawn for those parameters, mostly ones a loose or coercing validator lets by.
 * Drawn last, so the rest of a case is what it was before.
 */
const withRicherParameters = nowAndThenWith(parameterCase(2), (s: Scenario, c: { parameters: ValueDesc; args: ValueDesc[] }): Scenario => ({
  ...s,
  tools: s.tools.map((t) => ({ ...t, parameters: c.parameters, classifier: { kind: 'returns', value: true } })),
  pre: [],
  guards: [],
  wrappers: [],
  post: [],
  calls: s.calls.map((call, i) => ({ ...call, args: c.args[i] ?? call.args })),
}), 2)

/**
 * In a quarter of DEF-5's cases, where the tool's parameters require a key, the first call's
 * arguments are {} and no hook stands in the way: an empty object is checked like any other. Drawn last.
 */
function emptyArgumentsFirst(s: Scenario): Scenario {
  const required = (s.tools[0]?.parameters as { required?: unknown } | undefined)?.required
  if (!Array.isArray(required) || required.length === 0) return s
  return { ...s, pre: [], guards: [], wrappers: [], post: [], calls: s.calls.map((call, i) => (i === 0 ? { ...call, args: {} } : call)) }
}

/**
 * In a third of DEF-5's cases a tool of its own, `limited`, made with defineTool like the case's,
 * takes a required `path`, an optional integer `limit` and optional `opts` that allow no key but
 * `depth`; no hook stands in the way, and it is called last four times: with `limit: null`
 * (optional is not nullable), without `limit`, with `limit: 2.5` (a number, not an integer), and
 * with `opts` holding a key it does not declare (a key a validator that prunes would drop). Beside
 * it `keyed`, whose one required key is named like a member every object inherits (`constructor`),
 * called with {} and then with that key. Drawn last.
 */
const OPTIONAL_LIMIT: ValueDesc = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    opts: { type: 'object', properties: { depth: { type: 'integer' } }, additionalProperties: false },
  },
  required: ['path'],
}
const INHERITED_NAME_REQUIRED: ValueDesc = { type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] }
const KEYED_ARGS: ValueDesc[] = [{}, { constructor: 'x' }]
function withOptionalLimit(s: Scenario): Scenario {
  const model = s.tools[0]
  if (!model || s.tools.some((t) => t.name === 'limited' || t.name === 'keyed')) return s
  const limited = toolOfItsOwn(model, 'limited', { parameters: OPTIONAL_LIMIT, define: true })
  const limits: ValueDesc[] = [
    { path: 'notes.txt', limit: null }, { path: 'notes.txt' }, { path: 'notes.txt', limit: 2.5 }, { path: 'notes.txt', opts: { depth: 1, extra: true } },
  ]
  const keyed = toolOfItsOwn(model, 'keyed', { parameters: INHERITED_NAME_REQUIRED, define: true })
  const calls = [
    ...limits.map((args): CallSpec => ({ tool: 'limited', args })),
    ...KEYED_ARGS.map((args): CallSpec => ({ tool: 'keyed', args })),
  ]
  return { ...s, tools: [...s.tools, limited, keyed], pre: [], guards: [], wrappers: [], post: [], calls: [...s.calls, ...calls] }
}

/**
 * Now and then agent A has a tool of the same name, also made with defineTool and registered first,
 * whose parameters take any object, and every other call is A's: each tool checks the arguments
 * against its own parameters, whichever of the two was defined first (DEF-5 is per tool).
 */
const withAgentShadowDefinedFirst = (s: Scenario): Scenario => {
  const [own] = s.tools
  if (!own) return s
  const shadow: ToolSpec = { ...own, scope: 'A', parameters: { type: 'object' }, define: true }
  return { ...s, tools: [shadow, ...s.tools], calls: s.calls.map((call, i) => (i % 2 === 1 ? { ...call, agent: 'A' } : call)) }
}

type Flaw =
  | 'no-output' | 'no-schema' | 'no-render' | 'render-not-function'
  | 'timeout-zero' | 'timeout-negative' | 'timeout-nan' | 'timeout-infinite' | 'timeout-string' | 'timeout-null' | 'timeout-boxed'

const REFUSED = 'A duplicate the registry refused.'

/** Whether the listing (where the registry lists tools) describes `name` as the refused duplicate: the first stays registered (DEF-2). */
function listsRefused(registry: RegistryUnderTest, name: string, scope: ScopeOption | undefined): boolean {
  let listed: readonly unknown[]
  try {
    listed = registry.schemas(scope)
  } catch {
    return false
  }
  return Array.isArray(listed) && listed.some((entry) => {
    const e = entry as { name?: unknown; description?: unknown } | null
    return e?.name === name && e.description === REFUSED
  })
}

/** A disposer used again: SPEC does not say it may not throw, only what it leaves registered. */
function disposeAgain(dispose: () => void): void {
  try {
    dispose()
  } catch {
    // judged by the next call, not by the throw
  }
}

const flaws: Flaw[] = [
  'no-output',
  'no-schema',
  'no-render',
  'render-not-function',
  'timeout-zero',
  'timeout-negative',
  'timeout-nan',
  'timeout-infinite',
  'timeout-string',
  'timeout-null',
  'timeout-boxed',
]

const FLAW: Record<Flaw, string> = {
  'no-output': 'no output',
  'no-schema': 'an output without schema',
  'no-render': 'an output without render',
  'render-not-function': 'an output whose render is the string "text"',
  'timeout-zero': 'timeoutMs 0',
  'timeout-negative': 'timeoutMs -5',
  'timeout-nan': 'timeoutMs NaN',
  'timeout-infinite': 'timeoutMs Infinity',
  'timeout-string': 'timeoutMs "100" (a string)',
  'timeout-null': 'timeoutMs null',
  'timeout-boxed': 'timeoutMs new Number(100)',
}

/** `def` given `flaw`, in place. */
function flawed(def: ToolDefinition, flaw: Flaw): ToolDefinition {
  const base = def as unknown as Record<string, unknown>
  const output = base.output as Record<string, unknown>
  switch (flaw) {
    case 'no-output':
      delete base.output
      break
    case 'no-schema':
      base.output = { render: output.render }
      break
    case 'no-render':
      base.output = { schema: output.schema }
      break
    case 'render-not-function':
      base.output = { schema: output.schema, render: 'text' }
      break
    default:
      base.timeoutMs = {
        'timeout-zero': 0,
        'timeout-negative': -5,
        'timeout-nan': Number.NaN,
        'timeout-infinite': Number.POSITIVE_INFINITY,
        'timeout-string': '100',
        'timeout-null': null,
        // eslint-disable-next-line no-new-wrappers
        'timeout-boxed': new Number(100),
      }[flaw]
  }
  return base as unknown as ToolDefinition
}

interface FlawCase {
  name: string
  flaw: Flaw
  timeoutMs: number | undefined
  /** The flawed definition is the object of a valid one registered and disposed of before, then changed. */
  sameObject?: true
}

interface DisposeCase {
  name: string
  scoped: boolean
  twice: boolean
  again: boolean
  /** Another tool's call is in flight from before the duplicate until the case ends. */
  busy?: true
}

const BUSY = 'long_running_job'

/** Starts a call to a tool of its own whose body waits, until its body runs; the function returned lets it end and waits for it. */
async function startBusyCall(registry: RegistryUnderTest): Promise<() => Promise<unknown>> {
  let release = () => {}
  let started = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const bodyStarted = new Promise<void>((resolve) => (started = resolve))
  registry.register(liveTool(BUSY, { execute: async () => (started(), await released, { done: true }) }))
  const running = registry.execute(input(BUSY))
  await Promise.race([bodyStarted, running])
  return () => (release(), running)
}

/** DEF-2's sequence: a duplicate refused, the first tool disposed of, the name registered anew, the disposer used again. */
async function disposeAndCall(ctx: CustomContext, registry: RegistryUnderTest, c: DisposeCase): Promise<void> {
  const scope = c.scoped ? { agent: registry.agent('A') } : undefined
  const callAs = c.scoped ? { agent: registry.agent('A') } : {}
  const dispose = registry.register(liveTool(c.name, { execute: async () => ({ first: true }) }), scope)
  let threw = false
  try {
    registry.register(liveTool(c.name, { description: REFUSED, execute: async () => ({ second: true }) }), scope)
  } catch {
    threw = true
  }
  if (!threw) ctx.fail('a duplicate registration in the same layer did not throw')
  if (listsRefused(registry, c.name, scope)) ctx.fail('after the duplicate was refused, schemas() lists the refused tool under the name')
  const first = await registry.execute(input(c.name, {}, callAs))
  if (first.isError || JSON.stringify(first.value) !== '{"first":true}') ctx.fail('after the duplicate, the first tool is no longer the one that runs')
  dispose()
  const after = await registry.execute(input(c.name, {}, callAs))
  if (!after.isError || codeOf(registry, after) !== 'UNKNOWN_TOOL') return ctx.fail('after its disposer, the name is not UNKNOWN_TOOL')
  if (c.twice) {
    disposeAgain(dispose)
    const still = await registry.execute(input(c.name, {}, callAs))
    if (!still.isError || codeOf(registry, still) !== 'UNKNOWN_TOOL') return ctx.fail('after its disposer ran a second time, the name is not UNKNOWN_TOOL')
  }
  if (!c.again) return
  try {
    registry.register(liveTool(c.name, { execute: async () => ({ again: true }) }), scope)
  } catch {
    return ctx.fail('once disposed, the name could not be registered anew')
  }
  const anew = await registry.execute(input(c.name, {}, callAs))
  if (anew.isError || JSON.stringify(anew.value) !== '{"again":true}') return ctx.fail('the tool registered anew is not the one that runs')
  disposeAgain(dispose)
  const stale = await registry.execute(input(c.name, {}, callAs))
  if (stale.isError || JSON.stringify(stale.value) !== '{"again":true}') ctx.fail('the first disposer, called again, removed the tool registered anew')
}

export default [
  custom(
    'DEF-1', 'a definition without output.schema and output.render, or with a timeoutMs that is not a positive finite number, is rejected at registration',
    fc.record({
      name: toolName,
      flaw: fc.constantFrom(...flaws),
      timeoutMs: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
      // Drawn last: in a quarter of the cases a timeoutMs a loose check lets by (Number() of a string or a boxed number, Infinity).
      coercible: fc.tuple(fc.nat(3), fc.constantFrom<Flaw>('timeout-string', 'timeout-boxed', 'timeout-infinite')),
    }).map(({ coercible: [k, flaw], ...c }): FlawCase => (k === 0 ? { ...c, flaw } : c)).chain(nowAndThen((c) => ({ ...c, sameObject: true }))),
    (c) => [
      ...(c.sameObject ? [`tool ${c.name} registered valid and disposed of; then that same definition object is changed`] : []),
      `tool ${c.name} registered with ${FLAW[c.flaw]}`,
      `then a valid tool ${c.name}${c.timeoutMs === undefined ? '' : ` with timeoutMs ${c.timeoutMs}`} registered`,
    ],
    async (ctx, c) => {
      const registry = await ctx.registry()
      let threw = false
      // One definition object registered again once changed is checked again: nothing a registry remembers of it vouches for it.
      const def = liveTool(c.name)
      if (c.sameObject) registry.register(def)()
      try {
        registry.register(flawed(def, c.flaw))
      } catch {
        threw = true
      }
      if (!threw) ctx.fail(`registering a definition with flaw "${c.flaw}" did not throw`)
      const valid = c.timeoutMs === undefined ? liveTool(c.name) : liveTool(c.name, { timeoutMs: c.timeoutMs })
      try {
        registry.register(valid)
      } catch {
        ctx.fail('a valid definition was rejected after a flawed one')
      }
    },
  ),

  custom(
    'DEF-2',
    'a second tool of the same name in the same layer throws, the first stays callable, and its disposer makes the name UNKNOWN_TOOL; ' +
      'a disposer used again (at once, or after the name was registered anew) disposes nothing and registers nothing',
    // In a quarter of the cases another tool's call is in flight while the disposer runs: a disposal takes effect at once, busy or not.
    fc.record({ name: toolName, scoped: fc.boolean(), twice: fc.boolean(), again: fc.boolean() })
      .chain(nowAndThen((c): DisposeCase => ({ ...c, busy: true }))),
    (c) => [
      ...(c.busy ? [`first a call to ${BUSY} is started, its body waiting until the end of the case`] : []),
      `tool ${c.name} registered ${c.scoped ? 'for agent A' : 'globally'}, then a second tool ${c.name} in the same layer`,
      `${c.name} is called${c.scoped ? ' as agent A' : ''}; its first registration is disposed; it is called again`,
      ...(c.twice ? [`the disposer is called a second time at once, and ${c.name} is called again`] : []),
      ...(c.again ? [`${c.name} is registered anew, called, the first disposer is called again, and ${c.name} is called once more`] : []),
      twoLayersStory(c.name, c.scoped),
    ],
    async (ctx, c) => {
      const registry = await ctx.registry()
      const busy = c.busy ? await startBusyCall(registry) : undefined
      try {
        await disposeAndCall(ctx, registry, c)
      } finally {
        await busy?.()
      }
      await disposedInOneLayer(ctx, c.name, c.scoped)
    },
  ),

  judged(
    'DEF-3', 'presentCall and presentResult are never called by the registry during execution',
    scenario({ tools: fc.array(tool().map((t) => ({ ...t, presentCall: true })), { minLength: 1, maxLength: 1 }) }),
  ),

  custom(
    'DEF-4', 'parameters that are not lossless JSON are rejected at registration, and schemas() itself never throws',
    fc.record({ name: toolName, parameters: poisoned }),
    (c) => [`tool ${c.name} registered with parameters ${valueWords(c.parameters)}`, 'then schemas() is read'],
    async (ctx, c) => {
      const registry = await ctx.registry()
      let threw = false
      try {
        registry.register(liveTool(c.name, { parameters: buildValue(c.parameters) as never }))
      } catch {
        threw = true
      }
      if (!threw) ctx.fail('parameters that are not lossless JSON were accepted')
      try {
        registry.schemas()
      } catch {
        ctx.fail('schemas() threw')
      }
    },
  ),

  judged(
    'DEF-5', 'a defineTool tool ends a call whose arguments violate parameters as INVALID_ARGS before its body runs, and classifies it exclusive',
    // Most calls violate the tool's own parameters; the rest come from a pool valid for some schema or other.
    tool({ define: true }).chain((t) => scenario({
      tools: fc.constant([{ ...t, define: true }]),
      calls: {
        max: 2,
        args: fc.oneof(
          { weight: 3, arbitrary: invalidArguments(t.parameters) },
          fc.oneof(
            fc.constantFrom<ValueDesc>({}, { path: 1 }, { n: 1.5 }, { path: 'x', n: 'y' }),
            ...PARAMETER_SCHEMAS.map((schema) => schemaArbitrary(schema) as fc.Arbitrary<ValueDesc>),
          ),
        ),
      },
    })).chain(withRicherParameters).chain(nowAndThen(withAgentShadowDefinedFirst)).chain(nowAndThen(emptyArgumentsFirst))
      .chain(nowAndThen(withOptionalLimit, 3)),
    'define',
  ),
]
