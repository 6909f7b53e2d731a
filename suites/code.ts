/** CODE: Code Mode. */
import fc from 'fast-check'
import {
  buildValue, defaults, isLosslessDesc, nowAndThen, nowAndThenWith, poisoned, publishedText, scenario, tool, valueWords, type Scenario,
} from '../harness/property/vocabulary.js'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { judged } from '../harness/property/scenario-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { RegistryUnderTest } from '../harness/contract/adapter.js'
import type { JsonValue, ToolExecution, ToolExecutionResult } from '../harness/contract/spec.js'
import { sleep } from './real-time.js'
import { withDirect } from './with-direct.js'


const codeMode = fc.constant('code' as const)
const names = fc.uniqueArray(fc.constantFrom('read_file', 'edit', 'search', 'constructor', 'toString'), { minLength: 1, maxLength: 3 })
/**
 * A case of CODE-2: the tools a program calls; in a quarter of them the first one's body calls a
 * tool `leaf` itself, the nested call's token as parent (two levels deep). Drawn last.
 */
interface NestingCase {
  toolNames: string[]; deeper?: true; concurrent?: true
  /**
   * One more run_code call, with the program's callId, made in the same tick: its program is empty
   * and ends first, while the program's calls (one after another, the first tool called again last)
   * go on. A callId is the caller's label: the program still running is still the parent.
   */
  twin?: true
}
/** In a third of the cases the program makes its calls concurrently: sub-calls in flight at once, each with run_code as parent. Drawn last. */
const nesting = names.map((toolNames): NestingCase => ({ toolNames }))
  .chain(nowAndThen((c): NestingCase => ({ ...c, deeper: true })))
  .chain(nowAndThen((c): NestingCase => ({ ...c, concurrent: true }), 3))
  .chain(nowAndThen(({ concurrent: _c, ...c }): NestingCase => ({ ...c, twin: true }), 3))
/** The calls a CODE-2 program makes: beside a twin, the first tool again last, a call made once the twin has ended. */
const programOf = (toolNames: string[], twin?: true) => (twin ? [...toolNames, toolNames[0]!] : toolNames)
const TWIN_WAIT_MS = 50
const toolsLine = (toolNames: readonly string[]) => `code mode; native tools ${toolNames.join(', ')}`

const LOG_LISTENER = {
  'rewrite': 'rewrites every sub-call\'s logged content to "redacted"',
  'throw': 'throws',
  'delegate-then-rewrite': 'awaits next(), then rewrites the logged content to "redacted"',
} as const

type LogListener = keyof typeof LOG_LISTENER
interface LogCase { names: string[]; listener: LogListener; inner?: LogListener }
/**
 * In half of CODE-4's cases two listeners, the second registered after the first and run inside it:
 * a throw anywhere in the chain that was run leaves the original content logged. Drawn last.
 */
const chains = fc.constantFrom<[LogListener, LogListener]>(
  ['delegate-then-rewrite', 'throw'], ['delegate-then-rewrite', 'throw'], ['throw', 'rewrite'], ['delegate-then-rewrite', 'rewrite'], ['rewrite', 'throw'],
)
const logCase: fc.Arbitrary<LogCase> = fc.record({ names, listener: fc.constantFrom<LogListener>('rewrite', 'throw', 'delegate-then-rewrite') })
  .chain(nowAndThenWith(chains, (c, [listener, inner]): LogCase => ({ ...c, listener, inner }), 2))
/** Whether the chain the waterfall runs (the first listener, and the inner one only where the first awaits next()) meets a throw. */
const chainThrows = (c: LogCase) => c.listener === 'throw' || (c.listener === 'delegate-then-rewrite' && c.inner === 'throw')

function runProgram(
  registry: RegistryUnderTest, calls: { name: string; arguments: JsonValue }[], agent = true, opts: { concurrent?: boolean } = {},
): Promise<ToolExecutionResult> {
  const program = registry.codeProgram!(calls, opts)
  return registry.execute({
    callId: 'program',
    name: 'run_code',
    arguments: program,
    signal: new AbortController().signal,
    ...(agent ? { agent: registry.agent('A') } : {})
  })
}

/** Each fake-parent call followed by its parent-less twin, the call it must end like (CODE-5 vs CODE-1). */
const withAbsentTwins = (cases: fc.Arbitrary<Scenario>): fc.Arbitrary<Scenario> =>
  cases.map((s) => ({ ...s, calls: [...s.calls, ...s.calls.filter((c) => c.fakeParent).map(({ fakeParent: _f, sameCallIdAs: _s, ...twin }) => twin)] }))

/** The token of an execution that has finished is no longer a parent (CODE-5): checked on run_code's own token. */
const staleParent = custom(
  'CODE-5', 'the token of a finished execution, used as parent, is treated as absent',
  names,
  (toolNames) => [toolsLine(toolNames), 'an empty program runs; then each tool is called with run_code\'s finished token as parent'],
  async (ctx, toolNames) => {
    const registry = await ctx.registry({ mode: 'code' })
    if (!registry.codeProgram) return ctx.fail('the adapter declares the code profile but has no codeProgram')
    let bodies = 0
    for (const name of toolNames) registry.register(liveTool(name, { execute: async () => (bodies++, { name }) }))
    const tokens: unknown[] = []
    registry.onResult((exec) => void (exec.name === 'run_code' && tokens.push(exec.token)))
    await runProgram(registry, [])
    if (tokens.length !== 1) return ctx.fail(`observers saw ${tokens.length} run_code executions for one program`)
    for (const name of toolNames) {
      // "Treated as absent" is "ends like the same call with no parent": when that call itself reaches
      // the tool, the fault is CODE-1's, not this clause's.
      const before = bodies
      const absent = await registry.execute(input(name, {}, { agent: registry.agent('A') }))
      if (codeOf(registry, absent) !== 'UNKNOWN_TOOL') {
        bodies = before
        continue
      }
      const result = await registry.execute(input(name, {}, { parent: tokens[0], agent: registry.agent('A') }))
      if (codeOf(registry, result) !== 'UNKNOWN_TOOL') ctx.fail(
        `a call to ${name} whose parent is a finished execution ended as ${result.isError ? codeOf(registry, result) : 'a success'}, expected UNKNOWN_TOOL`,
      )
    }
    if (bodies > 0) ctx.fail(`${bodies} native bodies ran under a finished parent`)
  },
  'code', 25,
)

/**
 * CODE-1's proviso made concrete: with arguments that are not lossless JSON, a direct call to a
 * native tool may end at IN-2 first, but then exactly as a call to a missing tool with the same
 * arguments (same kind, code and shape), and no policy stage or body sees it.
 */
const sameEndAsMissing = custom(
  'CODE-1', 'with arguments that are not lossless JSON, a direct native call ends exactly like a call to a missing tool with the same arguments',
  fc.record({ names, args: poisoned }),
  (c) => [
    `${toolsLine(c.names)}, each with a finalizer; a pre-execute listener that delegates`,
    `a missing tool, then each native tool, is called directly with arguments ${valueWords(c.args)}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry({ mode: 'code' })
    let policy = 0
    for (const name of c.names) registry.register(liveTool(name, { execute: async () => (policy++, { name }), finalizeContent: () => void policy++ }))
    registry.onPreExecute(async (_exec, next) => (policy++, next()))
    const shape = (r: ToolExecutionResult) => JSON.stringify({
      isError: r.isError,
      code: codeOf(registry, r),
      keys: Object.keys(r).sort(),
      error: r.isError ? Object.keys(r.error).sort() : [],
    })
    const missing = shape(await registry.execute(input('missing_tool', buildValue(c.args))))
    for (const name of c.names) {
      const direct = shape(await registry.execute(input(name, buildValue(c.args))))
      if (direct !== missing) ctx.fail(`a direct call to ${name} ended ${direct}, a call to a missing tool with the same arguments ${missing}`)
    }
    if (policy > 0) ctx.fail(`${policy} policy stages, bodies or finalizers observed direct calls`)
  },
  'code', 25,
)

const scopedTools = fc.uniqueArray(tool({ scoped: true }), { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` })

/**
 * In half of CODE-1's cases a program calls the first tool (a nested call, carrying its
 * parent), and then the same caller calls it directly: UNKNOWN_TOOL all the same (a registry that
 * remembers how the program's call resolved the name routes the direct one). Calls one after
 * another only. Drawn last.
 */
function nestedThenDirect(s: Scenario): Scenario {
  const tool = s.tools[0]
  if (!tool || s.concurrent) return s
  // A program's sub-call carries JSON (its arguments are written in the program's code).
  const drawn = s.calls.find((c) => c.tool === tool.name && !c.program)?.args
  const args = drawn !== undefined && isLosslessDesc(drawn) ? drawn : {}
  const caller = tool.scope ? { agent: tool.scope } : {}
  return { ...s, calls: [...s.calls, { tool: tool.name, args, program: [{ tool: tool.name, args }], ...caller }, { tool: tool.name, args, ...caller }] }
}

export default [
  withDirect(judged(
    'CODE-1', 'in code mode a parent-less call naming a native tool is UNKNOWN_TOOL before any policy stage, exactly like a tool that does not exist',
    // Tools of an agent's own in half the cases: natives too, hidden from that agent's direct calls.
    scenario({
      mode: codeMode,
      tools: fc.oneof(defaults.tools, scopedTools),
      approval: defaults.approval,
      calls: { max: 2, unknownNames: true, agents: true },
    }).chain(nowAndThen(nestedThenDirect, 2)),
  ), sameEndAsMissing),

  custom(
    'CODE-2', 'a call carrying the parent token of an enclosing execution runs the full pipeline, every stage seeing that parent',
    nesting,
    ({ toolNames, deeper, concurrent, twin }) => [
      `${toolsLine(deeper ? [...toolNames, 'leaf'] : toolNames)}, each with a finalizer; a listener, guard, wrapper and observer at every stage`,
      `a run_code program calls ${programOf(toolNames, twin).join(concurrent ? ' and ' : ', then ')}${concurrent ? ', all at once' : ''}`,
      ...(deeper ? [`the body of ${toolNames[0]} calls leaf, carrying its own token as parent`] : []),
      ...(twin ? ['in the same tick, one more run_code call with the same callId runs an empty program; the first body waits for its end'] : []),
    ],
    async (ctx, { toolNames, deeper, concurrent, twin }) => {
      const registry = await ctx.registry({ mode: 'code' })
      if (!registry.codeProgram) return ctx.fail('the adapter declares the code profile but has no codeProgram')
      const seen = new Map<string, string[]>()
      // Every stage of a nested call, the body's context included, sees the parent token it carries.
      const mark = (name: string, stage: string, exec: { parent?: unknown }) =>
        void seen.set(name, [...(seen.get(name) ?? []), exec.parent === undefined && name !== 'run_code' ? `${stage} without parent` : stage])
      let leaf: ToolExecutionResult | undefined
      let twinEnded: Promise<ToolExecutionResult> | undefined
      const callLeaf = async (exec: ToolExecution) => {
        leaf = await registry.execute({ ...input('leaf'), signal: exec.signal, parent: exec.token, ...(exec.agent === undefined ? {} : { agent: exec.agent }) })
      }
      for (const name of deeper ? [...toolNames, 'leaf'] : toolNames) {
        registry.register(liveTool(name, {
          execute: (async (_args: JsonValue, exec: ToolExecution) => {
            mark(name, 'body', exec)
            // Concurrent bodies take a moment, as real tools do: the program's calls are then in flight together.
            if (concurrent) await sleep(1)
            // A registry may run one run_code at a time: the wait for the twin's end is bounded.
            if (twinEnded && name === toolNames[0]) await Promise.race([twinEnded, sleep(TWIN_WAIT_MS)])
            if (deeper && name === toolNames[0]) await callLeaf(exec)
            return { name }
          }) as never,
          finalizeContent: (exec: { parent?: unknown }) => void mark(name, 'finalize', exec),
        }))
      }
      registry.onPreExecute(async (exec, next) => (mark(exec.name, 'pre', exec), next()))
      registry.guard((exec) => void mark(exec.name, 'guard', exec))
      registry.onExecute(async (exec, next) => (mark(exec.name, 'wrapper', exec), next()))
      registry.onPostExecute(async (exec, _r, next) => (mark(exec.name, 'post', exec), next()))
      registry.onResult((exec) => void mark(exec.name, 'result', exec))
      const calls = programOf(toolNames, twin).map((name) => ({ name, arguments: {} }))
      const running = runProgram(registry, calls, true, { concurrent: concurrent === true })
      twinEnded = twin ? runProgram(registry, [], true) : undefined
      const outcome = await running
      if (outcome.isError) ctx.fail(`the program failed (${codeOf(registry, outcome)})`)
      const twinOutcome = await twinEnded
      if (twinOutcome?.isError) ctx.fail(`the empty program sharing the callId failed (${codeOf(registry, twinOutcome)})`)
      if (leaf?.isError) ctx.fail(`the call to leaf from ${toolNames[0]}'s body, its parent in flight, ended as an error (${codeOf(registry, leaf)})`)
      for (const name of deeper ? [...toolNames, 'leaf'] : toolNames) {
        // A stage met twice is its own clause's (RES-1 for the observers, FIN-2, PRE-8), not CODE-2's: each is counted once.
        const stages = JSON.stringify([...new Set(seen.get(name) ?? [])])
        if (stages !== '["pre","guard","wrapper","body","post","finalize","result"]') ctx.fail(`the nested call to ${name} passed ${stages}`)
      }
    },
    'code', 25,
  ),

  custom(
    'CODE-3', 'in code mode the model-facing tool list holds only run_code, for every agent; in both mode native calls execute normally',
    fc.record({ toolNames: names, own: fc.uniqueArray(fc.constantFrom('grep', 'list_dir'), { maxLength: 2 }) }),
    ({ toolNames, own }) => [
      `tools ${toolNames.join(', ')} registered on a code-mode registry and on a both-mode one`,
      ...(own.length > 0 ? [`with the scopes profile, tools ${own.join(', ')} registered on both for agent A`] : []),
      `both model-facing tool lists are read, for no agent and for agent A; ${toolNames[0]} is called natively in both mode`,
    ],
    async (ctx, { toolNames, own }) => {
      const code = await ctx.registry({ mode: 'code' })
      const both = await ctx.registry({ mode: 'both' })
      if (!code.modelTools || !both.modelTools) return ctx.fail('the adapter declares the code profile but has no modelTools')
      const scoped = ctx.adapter.profiles.includes('scopes') ? own : []
      for (const name of toolNames) {
        code.register(liveTool(name))
        both.register(liveTool(name))
      }
      for (const name of scoped) {
        code.register(liveTool(name), { agent: code.agent('A') })
        both.register(liveTool(name), { agent: both.agent('A') })
      }
      const names = async (registry: typeof code, agent?: 'A') =>
        ((await registry.modelTools!(agent ? { agent: registry.agent(agent) } : undefined)) as { name?: unknown }[]).map((t) => t.name)
      for (const agent of [undefined, 'A'] as const) {
        const whose = agent ? ' for agent A' : ''
        const listed = await names(code, agent)
        if (JSON.stringify(listed) !== '["run_code"]') ctx.fail(`code mode lists ${JSON.stringify(listed)}${whose}`)
        const bothListed = await names(both, agent)
        for (const name of [...toolNames, 'run_code', ...(agent ? scoped : [])]) {
          if (!bothListed.includes(name)) ctx.fail(`both mode does not list ${name}${whose}`)
        }
      }
      const direct = await both.execute(input(toolNames[0]!))
      if (direct.isError) ctx.fail(`a native call in both mode failed (${codeOf(both, direct)})`)
    },
    'code',
  ),

  custom(
    'CODE-4', 'the code-dispatch-log waterfall rewrites only the persisted copy of a sub-call\'s content; a throwing listener leaves the original logged',
    logCase,
    (c) => [
      `${toolsLine(c.names)}, each returning a secret`,
      `a code-dispatch-log listener that ${LOG_LISTENER[c.listener]}`,
      ...(c.inner ? [`a second one, registered after it, that ${LOG_LISTENER[c.inner]}`] : []),
      `a program calls ${c.names.join(', then ')}, on a registry with the listener and on one without`,
    ],
    async (ctx, c) => {
      const make = async (withListener: boolean) => {
        const registry = await ctx.registry({ mode: 'code' })
        if (!registry.codeProgram || !registry.onCodeDispatchLog || !registry.codeDispatchEvents) throw new Error(
          'the adapter declares the code profile but lacks codeProgram, onCodeDispatchLog or codeDispatchEvents',
        )
        for (const name of c.names) registry.register(liveTool(name, { execute: async () => ({ secret: `${name}-secret` }) }))
        if (withListener) {
          for (const kind of c.inner ? [c.listener, c.inner] : [c.listener]) {
            registry.onCodeDispatchLog(async (_d, next) => {
              if (kind === 'throw') throw new Error('log listener fails')
              if (kind === 'delegate-then-rewrite') await next()
              return [{ type: 'text', text: 'redacted' }]
            })
          }
        }
        return registry
      }
      const plain = await make(false)
      const logged = await make(true)
      const calls = c.names.map((name) => ({ name, arguments: {} }))
      const expected = await runProgram(plain, calls)
      const outcome = await runProgram(logged, calls)
      // A published outcome that is not lossless JSON is META-1's verdict, not this clause's.
      const published = (result: ToolExecutionResult) => publishedText(result, 'META-1', 'the program\'s outcome')
      if (published(outcome) !== published(expected)) ctx.fail('the dispatch-log listener changed the program\'s value or the model-visible outcome')
      const events = logged.codeDispatchEvents!()
      const originals = plain.codeDispatchEvents!()
      if (events.length !== c.names.length) return ctx.fail(`${events.length} dispatch events persisted for ${c.names.length} sub-calls`)
      events.forEach((event, i) => {
        const want = chainThrows(c) ? originals[i]?.content : [{ type: 'text', text: 'redacted' }]
        if (JSON.stringify(event.content) !== JSON.stringify(want)) ctx.fail(`the persisted content of sub-call ${i} is ${JSON.stringify(event.content)}`)
      })
    },
    'code', 25,
  ),

  withDirect(
    judged(
      'CODE-5', 'a parent that is not the token of an execution in flight — a made-up one or a finished one — is treated as absent',
      withAbsentTwins(scenario({ mode: codeMode, calls: { max: 2, fakeParent: 100 } })),
    ),
    staleParent,
  ),
]
