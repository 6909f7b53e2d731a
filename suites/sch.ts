/** SCH: what the model sees. */
import fc from 'fast-check'
import {
  buildValue,
  extraField,
  jsonValue,
  losslessText,
  nowAndThen,
  readOnce,
  safeJson,
  toolName,
  valueWords,
  type ExtraField,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { RegistryUnderTest, ToolDefinition } from '../harness/contract/adapter.js'
import { caseNamesStory, listedDespiteCase } from './sch-case-names.js'

const HOST_FIELDS = ['execute', 'output', 'finalizeContent', 'timeoutMs', 'isConcurrencySafe', 'presentCall', 'presentResult']

interface ToolCase {
  name: string
  /** Registered for this agent, where the adapter declares scopes (SCH-1 only). */
  scope?: 'A' | 'B'
  parameters: ValueDesc
  extra: ExtraField[]
  host: boolean
  /** Described by the empty string: a description all the same, listed like any other. */
  emptyDescription?: true
  /**
   * Its parameters carry symbol-keyed metadata beside their JSON, as TypeBox schemas do (`[Kind]`),
   * at the root and in a property. A registry may refuse it (DEF-4); one that lists it lists JSON only.
   */
  symbolKeyed?: true
}

const toolCase: fc.Arbitrary<ToolCase> = fc.record({
  name: toolName,
  parameters: fc.oneof(
    fc.constant<ValueDesc>({ type: 'object' }),
    jsonValue.map((p) => ({ type: 'object', properties: { p: { default: p } } }) as ValueDesc),
    // A nullable field: null in its type, its enum and its default is data like any other.
    fc.constant<ValueDesc>({ type: 'object', properties: { unit: { type: ['string', 'null'], enum: ['C', 'F', null], default: null } } }),
  ),
  extra: fc.array(extraField, { maxLength: 3 }),
  host: fc.boolean(),
})
const toolCases = fc.uniqueArray(toolCase, { minLength: 1, maxLength: 3, selector: (t) => t.name })
/** Some tools registered for agent A or B, a name sometimes in two layers: the projection for each agent shows it its own. */
const scopedToolCases = fc.uniqueArray(
  fc.tuple(toolCase, fc.option(fc.constantFrom<'A' | 'B'>('A', 'B'), { nil: undefined, freq: 2 })).map(([c, scope]) => (scope ? { ...c, scope } : c)),
  { minLength: 1, maxLength: 4, selector: (t) => `${t.name}/${t.scope ?? ''}` },
)
type Agent = 'A' | 'B' | undefined

/**
 * A case of SCH-1: the tools; in a quarter of the cases a global tool is registered once every
 * listing was read, and each listing is read again (a listing kept per scope goes stale). Drawn last.
 */
interface ListingCase { cases: ToolCase[]; registeredLater?: true; shadowDisposed?: true }
/**
 * In a quarter of the cases the first tool is global and agent A has a tool of the same name; once
 * every listing was read the global one is disposed and each listing read again: A still lists its
 * own, nobody else lists the name (a set of shadowed names kept past a disposal goes stale). Drawn last.
 */
function withShadowDisposed(c: ListingCase): ListingCase {
  const [first, ...rest] = c.cases
  if (!first) return c
  const { scope: _scope, ...global } = first
  const others = rest.filter((t) => t.name !== first.name)
  return { ...c, cases: [global, { ...global, scope: 'A' }, ...others], shadowDisposed: true }
}
/** In a quarter of the cases the first tool's description is the empty string, which is listed all the same. Drawn last. */
const withEmptyDescription = (c: ListingCase): ListingCase =>
  ({ ...c, cases: c.cases.map((t, i) => (i === 0 ? { ...t, emptyDescription: true as const } : t)) })
const listedThenRegistered = scopedToolCases
  .map((cases): ListingCase => ({ cases }))
  .chain(nowAndThen((c): ListingCase => ({ ...c, registeredLater: true })))
  .chain(nowAndThen(withShadowDisposed))
  .chain(nowAndThen(withEmptyDescription))
const LATE = 'registered_late'

/** Parameters with an own key named __proto__: lossless JSON that a copy made by assignment loses. */
const protoKeyed: ValueDesc = { type: 'object', properties: { ['__proto__']: { type: 'string' }, b: { type: 'integer' } } }
/** In a quarter of SCH-2's cases the first tool's parameters hold an own __proto__ key: drawn last. */
const withProtoKeyedFirst = scopedToolCases.chain(nowAndThen((cases) => cases.map((c, i) => (i === 0 ? { ...c, parameters: protoKeyed } : c))))
/** In a quarter of SCH-2's cases more, a global tool whose parameters carry symbol-keyed metadata is registered last. Drawn last. */
const SYMBOL_KEYED: ToolCase = {
  name: 'typed_schema',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  extra: [],
  host: false,
  symbolKeyed: true,
}
const withSymbolKeyedLast = withProtoKeyedFirst.chain(
  nowAndThen((cases) => (cases.some((c) => c.name === SYMBOL_KEYED.name) ? cases : [...cases, SYMBOL_KEYED])),
)
const KIND = Symbol.for('toolreg.Kind')

/** The parameters `c` describes, with symbol-keyed metadata where the case asks for it. */
function parametersOf(c: ToolCase): unknown {
  const parameters = buildValue(c.parameters) as Record<PropertyKey, unknown>
  if (!c.symbolKeyed) return parameters
  parameters[KIND] = 'Object'
  for (const property of Object.values((parameters.properties ?? {}) as Record<string, Record<PropertyKey, unknown>>)) property[KIND] = 'String'
  return parameters
}

function extraWords(extra: ExtraField): string {
  const kind = [extra.enumerable ? '' : 'non-enumerable ', extra.symbol ? 'symbol-keyed ' : ''].join('')
  return `${kind}extra field ${extra.key} = ${valueWords(extra.value)}`
}

/** The tools a case registers, a line each: parameters, host fields, extras. */
const toolsStory = (cases: ToolCase[]): string[] =>
  cases.map((c) => [
    `tool ${c.name}${c.scope ? ` for agent ${c.scope} (globally without the scopes profile)` : ''}: parameters ${valueWords(c.parameters)}`,
    ...(c.emptyDescription ? ['an empty description'] : []),
    ...(c.symbolKeyed ? ['its parameters carry a symbol-keyed field at the root and in each property (it may be refused)'] : []),
    ...(c.host ? ['with host fields (timeoutMs, isConcurrencySafe, finalizeContent, presentCall, presentResult)'] : []),
    ...c.extra.map(extraWords),
  ].join('; '))

function definition(c: ToolCase): ToolDefinition {
  const description = c.emptyDescription ? '' : `The ${c.name} tool${c.scope ? ` of agent ${c.scope}` : ''}.`
  const def = liveTool(c.name, { description, parameters: parametersOf(c) as never }) as unknown as Record<PropertyKey, unknown>
  if (c.host) {
    def.timeoutMs = 50
    def.isConcurrencySafe = () => true
    def.finalizeContent = () => undefined
    def.presentCall = () => null
    def.presentResult = () => null
  }
  for (const extra of c.extra) {
    Object.defineProperty(def, extra.symbol ? Symbol(extra.key) : extra.key, {
      value: buildValue(extra.value),
      enumerable: extra.enumerable,
      configurable: true,
      writable: true,
    })
  }
  return def as unknown as ToolDefinition
}

function registerAll(registry: RegistryUnderTest, cases: ToolCase[]): { def: ToolDefinition; dispose: () => void }[] {
  return cases.map((c) => {
    const def = definition(c)
    const dispose = registry.register(def, c.scope === undefined ? undefined : { agent: registry.agent(c.scope) })
    return { def, dispose }
  })
}

/** The cases registered: a symbol-keyed one the registry refused (DEF-4) is left out. */
function registerAccepted(registry: RegistryUnderTest, cases: ToolCase[]): ToolCase[] {
  return cases.filter((c) => {
    try {
      registerAll(registry, [c])
      return true
    } catch (error) {
      if (!c.symbolKeyed) throw error
      return false
    }
  })
}

/** Without the scopes profile every tool is global: a scoped case whose name a global one holds is left out. */
function layered(cases: ToolCase[], scopes: boolean): ToolCase[] {
  if (scopes) return cases
  const kept: ToolCase[] = []
  // Globals first, then each scoped name not yet held.
  for (const c of [...cases.filter((g) => g.scope === undefined), ...cases.filter((g) => g.scope !== undefined)]) {
    if (!kept.some((k) => k.name === c.name)) kept.push(c)
  }
  return kept.map(({ scope: _scope, ...c }) => c)
}

/** The names of the tools `agent` sees: the globals and its own (which of a shadowed pair is SCP-1's). */
function visibleTo(cases: ToolCase[], agent: Agent): Set<string> {
  return new Set(cases.filter((c) => c.scope === undefined || (agent !== undefined && c.scope === agent)).map((c) => c.name))
}

/** The listings a case reads: schemas(), and with the scopes profile schemas({ agent }) for A and for B. */
function listings(registry: RegistryUnderTest, scopes: boolean) {
  return (scopes ? [undefined, 'A', 'B'] as const : [undefined] as const).map((agent) => ({
    agent,
    whose: agent === undefined ? 'schemas()' : `schemas({ agent: ${agent} })`,
    read: () => registry.schemas(agent === undefined ? undefined : { agent: registry.agent(agent) }),
  }))
}

/** The first (global) tool disposed: each listing names exactly the tools still visible there. */
function listedAfterDisposal(
  ctx: { fail(detail: string): void }, registry: RegistryUnderTest, scopes: boolean, cases: ToolCase[], dispose: () => void,
) {
  dispose()
  const disposed = cases[0]!.name
  for (const { agent, whose, read } of listings(registry, scopes)) {
    const names = read().map((entry) => String((entry as { name?: unknown }).name)).sort()
    const expected = [...visibleTo(cases.slice(1), agent)].sort()
    if (text(names) !== text(expected)) {
      ctx.fail(`${whose}, read again after the global ${disposed} was disposed, lists ${text(names)}, expected ${text(expected)}`)
    }
  }
}

/** What a caller may do to the array it was handed (one frozen refuses, and that is no fault). */
function changedByCaller(listed: readonly unknown[]): void {
  try {
    ;(listed as unknown[]).reverse()
    ;(listed as unknown[]).pop()
  } catch {
    // a frozen listing
  }
}

/** Text for comparing projections; never throws (what is not lossless is SCH-2's, checked there). */
const text = (value: unknown) => safeJson(value)

export default [
  custom(
    'SCH-1',
    'schemas() holds, per visible tool, exactly the keys name, description and parameters — never host fields or unknown extras, present or added later',
    listedThenRegistered,
    ({ cases, registeredLater, shadowDisposed }) => [
      ...toolsStory(cases),
      'each definition gains a field lateField after registration; schemas() is read, and with the scopes profile schemas({ agent }) for A and for B',
      ...(registeredLater ? [`then a global tool ${LATE} is registered, and each listing is read again`] : []),
      ...(shadowDisposed ? [`then the global ${cases[0]!.name} is disposed, and each listing is read again`] : []),
      caseNamesStory(cases[0]!.name),
    ],
    async (ctx, { cases: all, registeredLater, shadowDisposed }) => {
      const scopes = ctx.adapter.profiles.includes('scopes')
      const cases = layered(all, scopes)
      const registry = await ctx.registry()
      const registered = registerAll(registry, cases)
      for (const { def } of registered) (def as unknown as Record<string, unknown>).lateField = 'added after registration'
      for (const { agent, whose, read } of listings(registry, scopes)) {
        const listed = read()
        const visible = visibleTo(cases, agent)
        if (listed.length !== visible.size) ctx.fail(`${whose} listed ${listed.length} tools for ${visible.size} visible`)
        for (const entry of listed) {
          const keys = Reflect.ownKeys(entry as object).map(String).sort()
          if (text(keys) !== text(['description', 'name', 'parameters'])) ctx.fail(`an entry of ${whose} has keys ${text(keys)}`)
          const leaked = HOST_FIELDS.filter((f) => text(entry).includes(`"${f}"`) && !text(cases.map((c) => c.parameters)).includes(`"${f}"`))
          if (leaked.length > 0) ctx.fail(`host fields leaked in ${whose}: ${leaked.join(', ')}`)
          // Which layer a shadowed name is listed from is SCP-1's (suites/scp.ts).
          const { name } = entry as { name?: unknown }
          if (!visible.has(String(name))) ctx.fail(`${whose} listed ${text(name)}, which is not visible there`)
        }
      }
      if (shadowDisposed) listedAfterDisposal(ctx, registry, scopes, cases, registered[0]!.dispose)
      await listedDespiteCase(ctx, all[0]!.name)
      if (!registeredLater || cases.some((c) => c.name === LATE)) return
      registry.register(liveTool(LATE))
      for (const { whose, read } of listings(registry, scopes)) {
        const names = read().map((entry) => (entry as { name?: unknown }).name)
        if (!names.includes(LATE)) ctx.fail(`${whose}, read again after ${LATE} was registered globally, does not list it`)
      }
    },
  ),

  custom(
    'SCH-2', 'parameters in the projection is a detached lossless-JSON copy: mutating the returned object changes nothing later',
    withSymbolKeyedLast,
    (cases) => [
      ...toolsStory(cases),
      'schemas(), and with the scopes profile schemas({ agent }) for A and for B, are each read, every parameters object in them mutated, and read again',
    ],
    async (ctx, all) => {
      const scopes = ctx.adapter.profiles.includes('scopes')
      const registry = await ctx.registry()
      const cases = registerAccepted(registry, layered(all, scopes))
      // Listing order is SCH-3's: here each tool's parameters are compared by its name.
      const byName = (listed: readonly unknown[]) => text([...(listed as { name?: unknown }[])].sort((a, b) => String(a?.name).localeCompare(String(b?.name))))
      for (const { whose, read } of listings(registry, scopes)) {
        for (const entry of read()) {
          // Read once through any Proxy (a protocol copy is one); a getter or a throwing trap is the fault.
          const problems: string[] = []
          const parameters = readOnce((entry as { parameters?: unknown }).parameters, problems)
          if (problems.length > 0) ctx.fail(`parameters in ${whose} is not lossless JSON: ${problems[0]}`)
          losslessText(parameters, 'SCH-2', `parameters in ${whose}`)
        }
        const before = byName(read())
        for (const entry of read() as Record<string, unknown>[]) {
          try {
            const parameters = entry.parameters as Record<string, unknown>
            parameters.injected = { type: 'string' }
            ;(parameters as { type?: unknown }).type = 'array'
          } catch {
            // a frozen copy is also detached
          }
        }
        if (byName(read()) !== before) ctx.fail(`mutating a parameters object ${whose} returned changed later projections`)
      }
      const globals = cases.filter((c) => c.scope === undefined)
      const original = globals.map((c) => `${c.name}:${text(buildValue(c.parameters))}`).sort()
      const listed = (registry.schemas() as { name: unknown; parameters: unknown }[]).map((e) => `${String(e.name)}:${text(e.parameters)}`).sort()
      if (text(listed) !== text(original)) ctx.fail('parameters in schemas() differ from the registered JSON')
    },
  ),

  custom(
    'SCH-3', 'the projection is deterministic: same registrations, same order, deep-equal output',
    toolCases,
    (cases) => [
      ...toolsStory(cases),
      'the same tools registered on two registries; schemas() read twice on the first, once on the second',
      'then the array one schemas() returned is changed by its caller (reversed, its last entry removed), and schemas() read again',
      'then each tool of the first, last registered first, is classified and called, and schemas() read again',
    ],
    async (ctx, cases) => {
      const first = await ctx.registry()
      const second = await ctx.registry()
      registerAll(first, cases)
      registerAll(second, cases)
      const a = text(first.schemas())
      if (a !== text(first.schemas())) ctx.fail('two calls to schemas() on one registry differ')
      if (a !== text(second.schemas())) ctx.fail('two registries with the same registrations project differently')
      changedByCaller(first.schemas())
      if (a !== text(first.schemas())) ctx.fail('schemas() differs once a caller changed an array an earlier schemas() returned')
      // Using the tools registers nothing: a table that reorders on lookup reorders the listing.
      for (const c of [...cases].reverse()) {
        first.executionMode(input(c.name))
        await first.execute(input(c.name))
      }
      if (a !== text(first.schemas())) ctx.fail('schemas() differs once the tools were classified and called')
    },
  ),
]
