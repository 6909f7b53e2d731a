/**
 * The interpreter: turns a scenario into live tools, hooks and calls on a fresh registry from the
 * adapter, runs the calls (their await points ordered by a fast-check scheduler when one is
 * given), and records a trace. It judges nothing: the oracle and the suites read the trace.
 */
import type { Scheduler } from 'fast-check'
import { isAdapterFault, type AdapterFault, type ConformanceAdapter, type RegistryConfig, type RegistryUnderTest } from '../contract/adapter.js'
import type { JsonValue, ToolDefinition, ToolExecution, ToolExecutionInput, ToolExecutionResult, ToolRunContext } from '../contract/spec.js'
import { isDeepFrozen, safeJson } from './inspect.js'
import { describeThrown } from '../safe/safe-read.js'
import { afterOwnTime } from '../safe/own-time.mjs'
import type { AttackTarget, CallRecord, Stage, Trace, TraceEvent } from './trace.js'
import type {
  AgentName, ApprovalSpec, Attack, AttackValue, AttackWrite, BodyStep, CallSpec, DecisionSpec, DispatchStep, ObserverSpec, Scenario, ThrowsSpec,
  ToolSpec, ValueDesc,
} from './types.js'
import { approvalAnswer, neverWaits } from './types.js'
import { applyWrites } from './attack.js'
import { buildValue, changeEveryUnfrozen, deepFreeze } from './values.js'
import { isPlainDesc } from './read-desc.js'
import { stageEntered } from './stage-probe.js'
import { installToolDecisions } from './tool-decisions.js'
import { lookalikeOf } from './lookalike-agent.js'
import { UNKNOWN_RECEIVER } from '../safe/unknown-receiver.js'
import { SEAMS } from '../contract/seam-names.js'

/** Strings of a result kept in the trace's JSON copy (a 50 MB result must not fill reports). */
const RESULT_STRING_CHARS = 4096

export interface RunOptions {
  scheduler?: Scheduler
  /** Budget for the whole case, in this thread's own time (a starved process is not hung); past it the case is reported as hung. */
  budgetMs?: number
}

export async function runScenario(adapter: ConformanceAdapter, scenario: Scenario, options: RunOptions = {}): Promise<Trace> {
  const run = new ScenarioRun(scenario, options.scheduler, (adapter.seams ?? SEAMS).some((seam) => seam === 'tool-decisions' || seam === 'tool-asks'))
  let registry: RegistryUnderTest
  try {
    registry = await adapter.create(run.config())
  } catch (error) {
    return { events: [], calls: [], adapterError: `create() threw: ${describeThrown(error)}` }
  }
  try {
    const refused = run.registerTools(registry)
    if (refused) return { events: run.events, calls: [], refused }
    const setup = run.install(registry)
    if (setup) return { events: run.events, calls: [], adapterError: setup }
    const work = run.callAll(registry)
    const settled = options.scheduler ? options.scheduler.waitFor(work) : work
    const hung = await withinBudget(settled, options.budgetMs ?? 5000)
    if (run.fault) return { events: run.events, calls: run.records, adapterError: faultText(adapter, run.fault) }
    if (run.keyError) return { events: run.events, calls: run.records, adapterError: run.keyError }
    return {
      events: run.events,
      calls: run.records,
      nested: run.nested,
      ...(run.projected.length > 0 ? { projected: run.projected } : {}),
      ...(hung ? { hung: { lastStage: run.lastStage() } } : {}),
    }
  } finally {
    try {
      await registry.dispose?.()
    } catch {
      // A dispose failure does not change the verdict of a case already run.
    }
  }
}

/** The adapter's own machinery failed (AdapterFault): one line naming the adapter and the seam. */
function faultText(adapter: ConformanceAdapter, fault: AdapterFault): string {
  const where = fault.seam === 'driver' ? 'its own driver failed' : `its own test double failed at the ${fault.seam} seam`
  return `adapter ${adapter.name}: ${where} (a harness error, not the library's): ${fault.message}`
}

async function withinBudget(work: Promise<unknown>, budgetMs: number): Promise<boolean> {
  let cancel: (() => void) | undefined
  const expired = new Promise<true>((resolve) => {
    cancel = afterOwnTime(budgetMs, () => resolve(true))
  })
  try {
    return await Promise.race([work.then(() => false as const), expired])
  } finally {
    cancel?.()
  }
}

class ScenarioRun {
  readonly events: TraceEvent[] = []
  readonly records: CallRecord[] = []
  /** Nested calls a body dispatched, each named `<parent callId>/<step index>`. */
  readonly nested: CallRecord[] = []
  readonly projected: NonNullable<Trace['projected']> = []
  /** Approval requests made so far: a service with later answers answers each in turn. */
  private approvalRequests = 0
  private readonly tokens = new Map<unknown, number>()
  private callerTokens = 1
  /** The harness's identity of each execution object seen, bound at first sight. */
  private readonly owners = new WeakMap<object, string>()
  private readonly tokenOwners = new Map<unknown, string>()
  /** The callId handed to execute for each call still in flight → that call's harness identity. */
  private readonly inFlight = new Map<string, string>()
  /** The signal each call was handed by its caller (the harness, or the body that dispatched it), by harness identity. */
  private readonly callerSignals = new Map<string, AbortSignal>()
  /** Calls whose caller aborts the moment their body settles: the abort, by call. */
  private readonly abortsAsBodySettles = new Map<string, () => void>()
  /** Calls whose caller aborts as their first post-execute listener is entered: the abort, by call. */
  private readonly abortsWhilePostRuns = new Map<string, () => void>()
  /** Writes hostile hooks make later (on a decision they returned, a projection's output). */
  private pendingWrites: (() => void)[] = []
  /**
   * Bodies that keep their run context and conclude through it once they returned: the conclusion, by
   * call, made when that call enters its next stage or settles. Not sooner: a registry across a process
   * boundary learns that the body returned from the message before the conclusion's.
   */
  private readonly concludesLater = new Map<string, () => void>()
  private registry: RegistryUnderTest | undefined
  /** The arguments object the last call was handed, which a call may be handed again (IN-1). */
  private lastArgs: { object: unknown; plain: boolean } | undefined
  /** The input object each call was handed, by its index: a call that reuses one is handed it again. */
  private readonly inputs: ToolExecutionInput[] = []
  /** The first AdapterFault a call rejected with: the case is the adapter's error, not a verdict. */
  fault: AdapterFault | undefined
  /** The first throw of the adapter's `agent()` as a call was built: the case is the adapter's error, not a verdict. */
  keyError: string | undefined
  /** Callers' agent keys, asked for once, before any call (a server that dies mid-case is asked nothing more). */
  private readonly callerKeys = new Map<string, unknown>()

  constructor(
    private readonly scenario: Scenario,
    private readonly scheduler: Scheduler | undefined,
    /** The adapter installs per-tool decisions as the library's own setting (the tool-decisions seam). */
    private readonly nativeToolDecisions: boolean,
  ) {}

  config(): RegistryConfig {
    const { mode, approval, timeoutPolicy } = this.scenario.config
    const config: RegistryConfig = {}
    if (mode) config.mode = mode
    if (timeoutPolicy) config.timeoutPolicy = true
    if (approval) config.approval = { request: (req) => this.approval(approval, req) }
    return config
  }

  lastStage(): string {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const event = this.events[i]!
      if (event.ev === 'enter') return `${event.stage}#${event.index} of ${event.call}`
    }
    return 'before any stage'
  }

  /**
   * Registers the tools; returns a harness error naming the tool and its schemas when the
   * implementation refuses one (SPEC.md "Output schemas": a refusal is never a clause failure).
   */
  registerTools(registry: RegistryUnderTest): string | undefined {
    this.registry = registry
    for (const tool of this.scenario.tools) {
      try {
        registry.register(this.tool(registry, tool), tool.scope === undefined ? undefined : { agent: registry.agent(tool.scope) })
      } catch (error) {
        const schemas = `output schema ${safeJson(tool.outputSchema)}, parameters ${safeJson(tool.parameters)}`
        return `register(${tool.name}) refused the tool (${schemas}): ${describeThrown(error)}`
      }
    }
    return undefined
  }

  /** Registers the hooks; returns an adapter error message if the adapter refused valid input. */
  install(registry: RegistryUnderTest): string | undefined {
    const scope = (name: string | undefined) => (name === undefined ? undefined : { agent: registry.agent(name) })
    const step = (what: string, action: () => unknown): string | undefined => {
      try {
        action()
        return undefined
      } catch (error) {
        return `${what} threw: ${describeThrown(error)}`
      }
    }
    const s = this.scenario
    const errors = [
      step('agent', () => callers(s).forEach((agent) => this.callerKey(registry, agent))),
      ...s.pre.map((spec, i) => step('onPreExecute', () => disposingSelf(
        spec,
        this.preListener(i, spec.timing, spec.decision, spec.tamper, spec.attack),
        (hook) => registry.onPreExecute(hook, scope(spec.scope)),
      ))),
      step(
        this.nativeToolDecisions && registry.decideTool ? 'decideTool' : 'onPreExecute',
        () => installToolDecisions(registry, s.toolDecisions ?? [], this.nativeToolDecisions),
      ),
      ...s.guards.map((spec, i) => step('guard', () => disposingSelf(
        spec,
        this.guard(i, spec.verdict, spec.attack),
        (hook) => registry.guard(hook, scope(spec.scope)),
      ))),
      ...s.wrappers.map((spec, i) => step('onExecute', () => disposingSelf(
        spec,
        this.wrapper(i, spec),
        (hook) => registry.onExecute(hook, scope(spec.scope)),
      ))),
      ...s.post.map((spec, i) => step('onPostExecute', () => disposingSelf(
        spec,
        this.postListener(i, spec.timing, spec.decision, spec.attack),
        (hook) => registry.onPostExecute(hook, scope(spec.scope)),
      ))),
      ...s.observers.map((spec, i) => step('onResult', () => {
        const own: { dispose?: () => void } = {}
        own.dispose = registry.onResult(this.observer(i, spec, spec.disposesSelf ? own : undefined), scope(spec.scope))
      })),
    ]
    return errors.find((e) => e !== undefined)
  }

  async callAll(registry: RegistryUnderTest): Promise<void> {
    const runs = this.scenario.calls.map((spec, index) => () => this.call(registry, index))
    if (this.scenario.concurrent) await Promise.all(runs.map((run) => run()))
    else for (const run of runs) await run()
  }

  private async call(registry: RegistryUnderTest, index: number): Promise<void> {
    const spec = this.scenario.calls[index]!
    const callId = `c${index}`
    const controller = new AbortController()
    const record: CallRecord = { callId, observed: [] }
    this.records[index] = record
    // Two calls may share a callId (run one after another): the trace still tells them apart.
    const handedId = spec.sameCallIdAs === undefined ? callId : `c${spec.sameCallIdAs}`
    const kept = spec.reusesInput && spec.sameCallIdAs !== undefined ? this.inputs[spec.sameCallIdAs] : undefined
    const input: ToolExecutionInput = kept ?? { callId: handedId, name: spec.tool, arguments: this.argumentsFor(spec), signal: controller.signal }
    this.inputs[index] = input
    if (spec.callerChangesArgs === 'shallow-frozen') Object.freeze(input.arguments)
    this.callerSignals.set(callId, input.signal)
    if (spec.program && !kept) {
      input.name = 'run_code'
      input.arguments = registry.codeProgram?.(spec.program.map((p) => ({ name: p.tool, arguments: buildValue(p.args) as JsonValue })))
    }
    try {
      if (spec.agent) input.agent = spec.lookalikeAgent ? lookalikeOf(registry, spec.agent) : this.callerKey(registry, spec.agent)
    } catch (error) {
      // A dead protocol server answers nothing, agent() included: no call is made, and the case ends in the adapter's error.
      this.keyError ??= `agent(${spec.agent}) threw: ${describeThrown(error)}`
      return
    }
    if (spec.fakeParent) input.parent = Object.freeze({ notAnExecution: true })
    if (spec.callerToken) Object.assign(input, { token: this.callerToken(callId) })
    if (spec.spreadsOptions && !kept) Object.assign(input, { parent: input.parent, agent: input.agent })
    const abort = (marks: { asBodySettled?: true } = {}) => {
      this.events.push({ ev: 'abort', call: callId, ...marks })
      if (spec.abortReason === undefined) controller.abort()
      else controller.abort(buildValue(spec.abortReason))
    }
    const handed = malformedInput(spec.malformed, input)
    try {
      record.mode = registry.executionMode(handed as ToolExecutionInput)?.kind
    } catch (error) {
      record.mode = `threw ${describeThrown(error)}`
    }
    if (spec.abortAtEntry) abort()
    if (spec.abortScheduled) void this.pause().then(() => abort())
    // At a moment of the call's own: none after an earlier abort.
    if (spec.abortAsBodySettles) this.abortsAsBodySettles.set(callId, () => controller.signal.aborted || abort({ asBodySettled: true }))
    if (spec.abortWhilePostRuns) this.abortsWhilePostRuns.set(callId, () => controller.signal.aborted || abort())
    this.inFlight.set(handedId, callId)
    try {
      const pending = registry.execute(handed as ToolExecutionInput)
      if (spec.callerChangesArgs) changeEveryUnfrozen(input.arguments)
      const result = await pending
      record.result = result
      record.resultJson = safeJson(result, RESULT_STRING_CHARS)
      record.code = errorCodeOf(registry, result)
    } catch (error) {
      record.rejected = describeThrown(error)
      if (isAdapterFault(error)) this.fault ??= error
    }
    if (this.inFlight.get(handedId) === callId) this.inFlight.delete(handedId)
    this.flushWrites()
    taken(this.concludesLater, callId)?.()
    this.events.push({ ev: 'settled', call: callId })
  }

  private callerKey(registry: RegistryUnderTest, name: string): unknown {
    if (!this.callerKeys.has(name)) this.callerKeys.set(name, registry.agent(name))
    return this.callerKeys.get(name)
  }

  /**
   * This call's arguments: in the last call's object, changed in place, where the call reuses it,
   * both are plain objects (not Proxies, not tagged values), and that object takes the change.
   */
  private argumentsFor(spec: CallSpec): JsonValue {
    const fresh = buildValue(spec.args)
    const last = this.lastArgs
    const reused = spec.reusesArgsObject && last?.plain && isPlainDesc(spec.args) && refilled(last.object, fresh) ? last.object : fresh
    this.lastArgs = { object: reused, plain: isPlainDesc(spec.args) }
    return reused as JsonValue
  }

  /**
   * What a wrapper hands next() beside a signal when the scenario says so; none of it may take effect
   * (EXE-2). Its callId and token are known as `call`'s, so a stage that sees them is still traced to it.
   */
  private moreThanASignal(call: string): Record<string, unknown> {
    const callId = `hijacked-${call}`
    const token = Symbol('toolreg: a wrapper\'s token')
    this.inFlight.set(callId, call)
    this.tokenOwners.set(token, call)
    return { arguments: Object.freeze({ hijacked: true }), name: 'hijacked', callId, agent: 'hijacked', token }
  }

  /** What a hook that throws throws: an Error, or the scenario's own odd value (a Symbol, null…). */
  private thrown(message: string): unknown {
    return this.scenario.hooksThrow === undefined ? new Error(message) : buildValue(this.scenario.hooksThrow)
  }

  /**
   * A projection's or finalizer's throw; an async one returns a rejected promise instead, marked as
   * handled: a registry that never awaits it has let an error through, which the outcome shows.
   */
  private throwing(spec: ThrowsSpec, message: string): Promise<never> {
    if (!spec.async) throw this.thrown(message)
    const rejected = Promise.reject(this.thrown(message))
    rejected.catch(() => undefined)
    return rejected
  }

  private pause(): Promise<void> {
    return this.scheduler ? this.scheduler.schedule(Promise.resolve()).then(() => undefined) : Promise.resolve()
  }

  /** A token a caller put on its input; the trace numbers it below zero, so a stage that sees it shows (IN-3). */
  private callerToken(callId: string): object {
    const token = Object.freeze({ chosenByTheCaller: callId })
    this.tokens.set(token, -(this.callerTokens++))
    return token
  }

  private token(exec: ToolExecution): number {
    let id = this.tokens.get(exec.token)
    if (id === undefined) this.tokens.set(exec.token, (id = this.tokens.size + 1))
    return id
  }

  /**
   * The harness's identity of the call an execution (or run context) belongs to: bound to the
   * object, and to its token, the first time a stage sees them — from the callId the harness
   * handed to execute — so a hook that later rewrites `callId` cannot refile the call's stages.
   */
  private keyOf(exec: unknown): string {
    const isObject = typeof exec === 'object' && exec !== null
    const known = isObject ? this.owners.get(exec) : undefined
    if (known) return known
    const id = readField(exec, 'callId')
    const token = readField(exec, 'token')
    const key = (typeof id === 'string' ? this.inFlight.get(id) : undefined) ?? this.tokenOwners.get(token) ?? (typeof id === 'string' ? id : '?')
    if (isObject) this.owners.set(exec, key)
    if (token !== undefined && !this.tokenOwners.has(token)) this.tokenOwners.set(token, key)
    return key
  }

  private flushWrites(): void {
    const writes = this.pendingWrites
    this.pendingWrites = []
    for (const write of writes) write()
  }

  /** A hostile hook's writes on `target`, recorded with the paths that took effect. */
  private attack(stage: Stage | 'approval', call: string, target: AttackTarget, object: unknown, writes: readonly AttackWrite[] | undefined): void {
    if (!writes || writes.length === 0) return
    const changed = applyWrites(object, writes, { resolve: (to, current) => this.resolveAttack(to, current, call) })
    this.events.push({ ev: 'attack', stage, call, target, changed })
  }

  /** Writes on a decision the hook returned, made when the call enters its next stage. */
  private attackLater(stage: Stage, call: string, returned: unknown, writes: readonly AttackWrite[] | undefined): void {
    if (!writes || writes.length === 0) return
    void Promise.resolve(returned).then(
      (decision) => this.pendingWrites.push(() => this.attack(stage, call, 'decision', decision, writes)),
      () => undefined,
    )
  }

  private resolveAttack(to: AttackValue, current: unknown, call: string): unknown {
    if ('value' in to) return buildValue(to.value)
    const index = Number(call.slice(1).split('/')[0])
    const spec = this.scenario.calls[index]
    switch (to.ref) {
      case 'flip':
        return typeof current === 'boolean' ? !current : true
      case 'other-tool':
        return this.scenario.tools.map((t) => t.name).find((name) => name !== spec?.tool) ?? 'missing_tool'
      case 'other-agent':
        return this.registry?.agent(spec?.agent === 'A' ? 'B' : 'A')
      case 'other-call-id':
        return this.scenario.calls.length > 1 ? `c${(index + 1) % this.scenario.calls.length}` : 'c-other'
      case 'other-token': {
        for (const [token, owner] of this.tokenOwners) if (owner !== call) return token
        return Symbol('toolreg: a forged token')
      }
    }
  }

  private enter(stage: Stage, exec: ToolExecution, index: number, extra: Partial<TraceEvent & { ev: 'enter' }> = {}): string {
    this.flushWrites()
    const call = this.keyOf(exec)
    taken(this.concludesLater, call)?.()
    this.events.push({
      ev: 'enter',
      stage,
      call,
      index,
      token: this.token(exec),
      execFrozen: isDeepFrozen(exec, ['signal', 'agent', 'parent', 'token']),
      ...extra
    })
    stageEntered(stage, index, call)
    return call
  }

  private leave(stage: Stage, call: string, index: number): void {
    this.events.push({ ev: 'leave', stage, call, index })
  }

  private decide<D>(decision: DecisionSpec, next: () => Promise<D>): unknown {
    switch (decision.kind) {
      case 'delegate':
        return next()
      case 'delegate-twice':
        return next().then(() => next())
      case 'delegate-again-later': {
        // A saved next() used after its listener returned: once the call has entered its next stage.
        const first = next()
        const again = () => void next().catch(() => undefined)
        void first.then(() => this.pendingWrites.push(again), () => undefined)
        return first
      }
      case 'throws-after-next':
        return next().then(() => {
          throw this.thrown('toolreg: listener throws after next()')
        })
      case 'returns':
        return buildValue(decision.value)
      case 'throws':
        throw this.thrown('toolreg: listener throws')
      case 'rejects':
        return Promise.reject(this.thrown('toolreg: listener rejects'))
    }
  }

  private timed<T>(timing: 'sync' | 'await', work: () => T): T | Promise<T> {
    return timing === 'await' ? this.pause().then(work) : work()
  }

  private preListener(index: number, timing: 'sync' | 'await', decision: DecisionSpec, tamper?: boolean, attack?: Attack) {
    return (exec: ToolExecution, next: () => Promise<unknown>): Promise<never> => {
      const call = this.enter('pre', exec, index)
      if (tamper) this.tamper(exec, call)
      this.attack('pre', call, 'exec', exec, attack?.exec)
      const returned = settleThen(() => this.timed(timing, () => this.decide(decision, next)), () => this.leave('pre', call, index))
      this.attackLater('pre', call, returned, attack?.decision)
      return returned as Promise<never>
    }
  }

  private postListener(index: number, timing: 'sync' | 'await', decision: DecisionSpec, attack?: Attack) {
    return (exec: ToolExecution, result: unknown, next: () => Promise<unknown>): Promise<never> => {
      const call = this.enter('post', exec, index, { resultFrozen: isDeepFrozen(result), isError: isErrorResult(result) })
      taken(this.abortsWhilePostRuns, call)?.()
      this.attack('post', call, 'exec', exec, attack?.exec)
      this.attack('post', call, 'result', result, attack?.result)
      const returned = settleThen(() => this.timed(timing, () => this.decide(decision, next)), () => this.leave('post', call, index))
      this.attackLater('post', call, returned, attack?.decision)
      return returned as Promise<never>
    }
  }

  private guard(index: number, verdict: Scenario['guards'][number]['verdict'], attack?: Attack) {
    return (exec: ToolExecution): string | undefined => {
      const again = this.events.some((e) => e.ev === 'enter' && e.stage === 'guard' && e.index === index && e.call === this.keyOf(exec))
      const call = this.enter('guard', exec, index)
      this.attack('guard', call, 'exec', exec, attack?.exec)
      this.leave('guard', call, index)
      // A throw is the guard's answer to the call: asked again (a retry), it has nothing against it.
      if (verdict.kind === 'throws') {
        if (again) return undefined
        throw this.thrown('toolreg: guard throws')
      }
      return verdict.kind === 'pass' ? undefined : (buildValue(verdict.value) as string | undefined)
    }
  }

  private wrapper(index: number, spec: Scenario['wrappers'][number]) {
    return (exec: ToolExecution, next: (o?: { signal?: AbortSignal }) => Promise<unknown>): Promise<never> => {
      const call = this.enter('wrapper', exec, index)
      this.attack('wrapper', call, 'exec', exec, spec.attack?.exec)
      const attacked = (result: unknown) => (this.attack('wrapper', call, 'result', result, spec.attack?.result), result)
      const act = (): unknown => {
        const { action } = spec
        switch (action.kind) {
          case 'pass':
            return next().then(attacked)
          case 'next-twice':
            return next().then(() => next()).then(attacked)
          case 'replace-signal':
            return next({ signal: new AbortController().signal, ...(this.scenario.overridesMore ? this.moreThanASignal(call) : {}) })
          case 'empty-override':
            return next(action.signalKey ? { signal: undefined } : {}).then(attacked)
          case 'made-up':
            return action.frozen ? deepFreeze(buildValue(action.result)) : buildValue(action.result)
          case 'unawaited-next':
            void Promise.resolve(next()).catch(() => undefined)
            return buildValue(action.result)
          case 'throws':
            throw this.thrown('toolreg: wrapper throws')
          case 'rejects':
            return Promise.reject(this.thrown('toolreg: wrapper rejects'))
          case 'throws-after-next':
            return next().then(() => {
              throw this.thrown('toolreg: wrapper throws after next()')
            })
          case 'made-up-after-next':
            return next().then(() => buildValue(action.result))
        }
      }
      return settleThen(() => this.timed(spec.timing, act), () => this.leave('wrapper', call, index)) as Promise<never>
    }
  }

  private observer(index: number, spec: ObserverSpec, own?: { dispose?: () => void }) {
    const { attack } = spec
    const notified = (exec: ToolExecution, result: unknown): void => {
      const call = this.enter('observer', exec, index, { resultFrozen: isDeepFrozen(result), isError: isErrorResult(result) })
      ;(this.records.find((r) => r.callId === call) ?? this.nested.find((r) => r.callId === call))?.observed.push(result)
      this.attack('observer', call, 'exec', exec, attack?.exec)
      this.attack('observer', call, 'result', result, attack?.result)
      this.leave('observer', call, index)
      // Disposed while the registry is still notifying: the observers after it must be notified all the same.
      const dispose = own?.dispose
      if (own) own.dispose = undefined
      dispose?.()
      if (spec.throws) throw this.thrown('toolreg: observer throws')
    }
    if (!spec.async) return notified
    return (exec: ToolExecution, result: unknown): Promise<void> => {
      const settled = (async () => notified(exec, result))()
      // A registry may ignore what an observer returns (ResultObserver returns void): its rejection is then nobody's escape.
      settled.catch(() => undefined)
      return settled
    }
  }

  private approval(spec: ApprovalSpec, req: Parameters<NonNullable<RegistryConfig['approval']>['request']>[0]) {
    const id = readField(req, 'callId')
    const call = (typeof id === 'string' ? this.inFlight.get(id) : undefined) ?? '?'
    const callerSignal = this.callerSignals.get(call)
    this.events.push({
      ev: 'approval-request',
      call,
      keys: Object.keys(req ?? {}).sort(),
      toolName: req?.toolName,
      reason: req?.reason,
      // The caller's signal itself (APR-1), not one merely of its type.
      signalIsCaller: callerSignal !== undefined && req?.signal === callerSignal,
    })
    this.flushWrites()
    switch (spec.kind) {
      case 'returns': {
        this.attack('approval', call, 'request', req, spec.attack)
        const answer = approvalAnswer(spec, this.approvalRequests++)
        return this.timed(spec.timing, () => buildValue(answer)) as never
      }
      case 'throws':
        throw this.thrown('toolreg: approval throws')
      case 'rejects':
        return Promise.reject(this.thrown('toolreg: approval rejects'))
      case 'never':
        return new Promise<never>(() => undefined)
    }
  }

  private tamper(exec: ToolExecution, call: string): void {
    const changed: string[] = []
    const attempt = (field: string, mutate: () => void, read: () => unknown, before: unknown) => {
      try {
        mutate()
      } catch {
        // Refusing the write is one of the allowed answers (IN-1).
      }
      try {
        if (read() !== before) changed.push(field)
      } catch {
        changed.push(field)
      }
    }
    const e = exec as unknown as Record<string, unknown>
    for (const field of ['name', 'callId', 'arguments', 'agent', 'token']) {
      const before = e[field]
      attempt(field, () => (e[field] = field === 'arguments' ? { tampered: true } : 'tampered'), () => e[field], before)
    }
    const args = exec.arguments
    if (typeof args === 'object' && args !== null) {
      const a = args as Record<string, unknown>
      attempt('arguments.*', () => (a.tampered = true), () => a.tampered, undefined)
    }
    this.events.push({ ev: 'tamper', call, changed })
  }

  private tool(registry: RegistryUnderTest, spec: ToolSpec): ToolDefinition {
    const run = this
    const def: Record<PropertyKey, unknown> = {
      name: spec.name,
      description: spec.description,
      parameters: buildValue(spec.parameters),
      output: this.output(spec),
      execute(args: JsonValue, ctx: ToolRunContext) {
        return spec.body.plain && neverWaits(spec.body) ? run.plainBody(spec, args, ctx) : run.body(registry, spec, args, ctx)
      },
    }
    if (spec.timeoutMs !== undefined) def.timeoutMs = spec.timeoutMs
    if (spec.finalize) def.finalizeContent = this.finalizer(spec.finalize, spec.attack?.finalize)
    if (spec.presentCall) {
      def.presentCall = () => {
        this.events.push({ ev: 'present', tool: spec.name })
        return null
      }
      def.presentResult = () => {
        this.events.push({ ev: 'present', tool: spec.name })
        return null
      }
    }
    this.classifier(def, spec)
    for (const extra of spec.extra ?? []) {
      const key = extra.symbol ? Symbol(extra.key) : extra.key
      Object.defineProperty(def, key, { value: buildValue(extra.value), enumerable: extra.enumerable, configurable: true, writable: true })
    }
    const tool = def as unknown as ToolDefinition
    return spec.define && registry.defineTool ? registry.defineTool(tool) : tool
  }

  private classifier(def: Record<PropertyKey, unknown>, spec: ToolSpec): void {
    const c = spec.classifier
    switch (c.kind) {
      case 'absent':
        return
      case 'returns':
        def.isConcurrencySafe = () => buildValue(c.value)
        return
      case 'throws':
        def.isConcurrencySafe = () => {
          throw this.thrown('toolreg: classifier throws')
        }
        return
      case 'not-a-function':
        def.isConcurrencySafe = buildValue(c.value)
        return
      case 'getter-returns':
        Object.defineProperty(def, 'isConcurrencySafe', { enumerable: true, configurable: true, get: () => () => buildValue(c.value) })
        return
      case 'has-key':
        def.isConcurrencySafe = (args: unknown) => {
          const has = typeof args === 'object' && args !== null && !Array.isArray(args) && Object.prototype.hasOwnProperty.call(args, c.key)
          if (!has && c.throwsWithout) throw new TypeError(`toolreg: the classifier read ${c.key} of arguments without it`)
          return has
        }
    }
  }

  private output(spec: ToolSpec) {
    const project = (p: ToolSpec['render'], value: unknown, asText: boolean): unknown => {
      if (p.kind === 'throws') return this.throwing(p, 'toolreg: projection throws')
      if (p.kind === 'returns') {
        const returned = buildValue(p.value)
        // A hostile projection rewrites what it returned once the registry has it in hand.
        if (p.mutateAfter) void Promise.resolve().then(() => mutateReturned(returned))
        return returned
      }
      return asText ? [{ type: 'text', text: JSON.stringify(value) }] : { size: JSON.stringify(value)?.length ?? 0 }
    }
    const output: Record<string, unknown> = { schema: buildValue(spec.outputSchema) }
    // Called as a method of `output`, a copy or a Proxy of it (holding its schema or this projection), as a projection
    // that reads `this` needs (OUT-2); a call that crossed the protocol carries no receiver to judge.
    const onOutput = (self: unknown, key: string) =>
      self === UNKNOWN_RECEIVER || readField(self, 'schema') === output.schema || readField(self, key) === output[key]
    const handed = (args: unknown, self: unknown, key: 'render' | 'presentationMeta', value: unknown) => this.projected.push({
      tool: spec.name,
      args: safeJson(args),
      ...(onOutput(self, key) ? {} : { detached: true as const, value: safeJson(value) }),
    })
    output.render = function render(this: unknown, args: unknown, value: unknown) {
      handed(args, this, 'render', value)
      return project(spec.render, value, true)
    }
    const meta = spec.meta
    if (meta) {
      output.presentationMeta = function presentationMeta(this: unknown, args: unknown, value: unknown) {
        handed(args, this, 'presentationMeta', value)
        return project(meta, value, false)
      }
    }
    return output
  }

  private finalizer(spec: NonNullable<ToolSpec['finalize']>, attack?: Attack) {
    return (exec: ToolExecution, result: unknown) => {
      // What the finalizer was handed: its contexts always (FIN-3 vs CTX-1), the whole result only
      // where a check reads it (an odd return, FIN-3).
      const odd = spec.kind === 'returns' && typeof spec.value === 'object' && spec.value !== null && !Array.isArray(spec.value)
      const seen = odd ? { detail: safeJson(result, RESULT_STRING_CHARS) } : {}
      const contexts = safeJson(readContexts(result))
      const call = this.enter('finalize', exec, 0, { resultFrozen: isDeepFrozen(result), isError: isErrorResult(result), contexts, ...seen })
      this.attack('finalize', call, 'exec', exec, attack?.exec)
      this.attack('finalize', call, 'result', result, attack?.result)
      this.leave('finalize', call, 0)
      if (spec.kind === 'throws') return this.throwing(spec, 'toolreg: finalizer throws')
      return spec.kind === 'keep' ? undefined : buildValue(spec.value)
    }
  }

  /**
   * A plain body runs its steps and throws synchronously, or returns a settled promise of its value:
   * the same steps an async body runs (a plain body has none that wait, and never waits for its signal).
   */
  private plainBody(spec: ToolSpec, args: JsonValue, ctx: ToolRunContext): Promise<unknown> {
    const call = this.enter('body', ctx, 0, { detail: safeJson({ tool: spec.name, scope: spec.scope, name: ctx.name, args }) })
    const record = this.records.find((r) => r.callId === call)
    let concludeLater = false
    try {
      this.attack('body', call, 'exec', ctx, spec.attack?.body)
      for (const step of spec.body.steps) {
        if (step.kind === 'conclude-later') concludeLater = true
        else runStepNow(step, ctx)
      }
      const outcome = spec.body.outcome
      if (outcome.kind === 'throw') throw buildValue(outcome.thrown)
      if (outcome.kind === 'reject') return Promise.reject(buildValue(outcome.thrown))
      return Promise.resolve(outcome.kind === 'return' ? buildValue(outcome.value) : undefined)
    } finally {
      if (record) record.bodySignalAborted = ctx.signal.aborted
      this.leave('body', call, 0)
      this.abortAsSettled(call)
      if (concludeLater) this.concludesLater.set(call, () => concludeOn(ctx))
    }
  }

  private async body(registry: RegistryUnderTest, spec: ToolSpec, args: JsonValue, ctx: ToolRunContext): Promise<unknown> {
    const call = this.enter('body', ctx, 0, { detail: safeJson({ tool: spec.name, scope: spec.scope, name: ctx.name, args }) })
    const record = this.records.find((r) => r.callId === call)
    let concludeLater = false
    try {
      this.attack('body', call, 'exec', ctx, spec.attack?.body)
      for (const [at, step] of spec.body.steps.entries()) {
        if (step.kind === 'await') await this.pause()
        else if (step.kind === 'conclude-later') concludeLater = true
        else if (step.kind === 'dispatch') await this.dispatch(registry, ctx, `${call}/${at}`, step)
        else runStepNow(step, ctx)
      }
      const outcome = spec.body.outcome
      switch (outcome.kind) {
        case 'return':
          return buildValue(outcome.value)
        case 'throw':
          throw buildValue(outcome.thrown)
        case 'reject':
          return await Promise.reject(buildValue(outcome.thrown))
        case 'until-aborted':
          await untilAborted(ctx.signal)
          return buildValue(outcome.value)
      }
    } finally {
      if (record) record.bodySignalAborted = ctx.signal.aborted
      this.leave('body', call, 0)
      this.abortAsSettled(call)
      if (concludeLater) this.concludesLater.set(call, () => concludeOn(ctx))
    }
  }

  /**
   * The abort of a call whose caller aborts as its body settles, queued before the body's promise
   * settles: it runs before any code awaiting that promise resumes.
   */
  private abortAsSettled(call: string): void {
    const abort = taken(this.abortsAsBodySettles, call)
    if (abort) queueMicrotask(abort)
  }

  private async dispatch(registry: RegistryUnderTest, ctx: ToolRunContext, callId: string, step: DispatchStep): Promise<void> {
    const signal = step.abortedSignal ? AbortSignal.abort() : ctx.signal
    const input: ToolExecutionInput = { callId, name: step.tool, arguments: buildValue(step.args), signal, parent: ctx.token }
    this.callerSignals.set(callId, signal)
    const agent = step.agent === undefined ? ctx.agent : step.agent === 'none' ? undefined : this.callerKey(registry, step.agent)
    if (agent !== undefined) input.agent = agent
    const record: CallRecord = { callId: input.callId, observed: [] }
    this.nested.push(record)
    this.inFlight.set(input.callId, input.callId)
    try {
      record.result = await registry.execute(input)
      record.resultJson = safeJson(record.result, RESULT_STRING_CHARS)
      record.code = errorCodeOf(registry, record.result)
      // A nested conclusion is forwarded, as a program's SDK does: the enclosing body concludes too.
      if (!record.result.isError && record.result.concludesTurn === true) ctx.concludeTurn()
    } catch (error) {
      record.rejected = describeThrown(error)
    } finally {
      this.inFlight.delete(input.callId)
    }
    this.events.push({ ev: 'settled', call: callId })
  }
}

/**
 * Registers `hook`; one that disposes of itself calls its disposer when first entered, before it
 * does what it does. A disposer that throws is left to the next call to judge: the hook is then
 * still registered, and a later call that enters it shows it.
 */
function disposingSelf<H extends (...args: never[]) => unknown>(spec: { disposesSelf?: true }, hook: H, register: (hook: H) => () => void): void {
  if (!spec.disposesSelf) {
    register(hook)
    return
  }
  let dispose: (() => void) | undefined
  const once = ((...args: Parameters<H>) => {
    const own = dispose
    dispose = undefined
    try {
      own?.()
    } catch {
      // judged by the calls after this one
    }
    return hook(...args)
  }) as H
  dispose = register(once)
}

/** `target` emptied and given `source`'s own properties (accessors as accessors); false where it refuses. */
function refilled(target: unknown, source: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false
  try {
    for (const key of Reflect.ownKeys(target)) if (!Reflect.deleteProperty(target, key)) return false
    Object.defineProperties(target, Object.getOwnPropertyDescriptors(source))
    return true
  } catch {
    return false
  }
}

/** A body step that neither waits nor needs the call's identity: a context deferred, the turn concluded. */
function runStepNow(step: BodyStep, ctx: ToolRunContext): void {
  if (step.kind === 'defer') {
    const context = buildValue(step.context)
    ctx.deferContext(context as never)
    if (step.changeAfter) rewriteMessage(context)
  } else if (step.kind === 'conclude') ctx.concludeTurn()
}

/** The abort `aborts` holds for `call`, removed: each is made once. */
function taken(aborts: Map<string, () => void>, call: string): (() => void) | undefined {
  const abort = aborts.get(call)
  aborts.delete(call)
  return abort
}

/** A saved run context used after its body returned: whatever it does, it must change nothing. */
function concludeOn(ctx: ToolRunContext): void {
  try {
    ctx.concludeTurn()
  } catch {
    // Refusing a call from a context whose body has returned is as good as ignoring it.
  }
}

function readField(object: unknown, key: string): unknown {
  try {
    return typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined
  } catch {
    return undefined
  }
}

/** What a hostile projection does to its own output after returning it. */
function mutateReturned(returned: unknown): void {
  try {
    if (Array.isArray(returned)) {
      const first = returned[0] as Record<string, unknown> | undefined
      if (typeof first === 'object' && first !== null) first.text = 'rewritten after returning'
      returned.push({ type: 'text', text: 'appended after returning' })
    } else if (typeof returned === 'object' && returned !== null) {
      ;(returned as Record<string, unknown>).rewritten = true
    }
  } catch {
    // A frozen copy refuses the write: as good as ignoring it.
  }
}

/** A body's later edit of a message it deferred: its first block's text rewritten (or a key added). */
function rewriteMessage(message: unknown): void {
  try {
    const first = (message as { content?: unknown[] } | null)?.content?.[0] as Record<string, unknown> | undefined
    if (typeof first === 'object' && first !== null && typeof first.text === 'string') first.text = 'rewritten after deferring'
    else if (typeof message === 'object' && message !== null) (message as Record<string, unknown>).rewritten = true
  } catch {
    // A message the body cannot change stays as deferred.
  }
}

function malformedInput(kind: CallSpec['malformed'], input: ToolExecutionInput): unknown {
  if (kind === 'not-an-object') return 42
  if (kind === 'no-signal') return { callId: input.callId, name: input.name, arguments: input.arguments }
  if (kind === 'callId-not-a-string') return { ...input, callId: 7 }
  return input
}

function errorCodeOf(registry: RegistryUnderTest, result: ToolExecutionResult): string | undefined {
  try {
    if (registry.errorCode) return registry.errorCode(result)
    const code = (result as { error?: { code?: unknown } } | null)?.error?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

/**
 * Runs `work` and records leaving the stage when it settles, or at once if it throws. A hook whose
 * answer is synchronous answers synchronously (the contracts allow a value or a Promise of one).
 */
function settleThen<T>(work: () => T | Promise<T>, after: () => void): T | Promise<T> {
  let value: T | Promise<T>
  try {
    value = work()
  } catch (error) {
    after()
    throw error
  }
  if (!isThenable(value)) {
    after()
    return value
  }
  return Promise.resolve(value).finally(after)
}

/** The contexts a result carries, for the finalizer's entry in the trace (FIN-3 vs CTX-1). */
function readContexts(result: unknown): unknown {
  try {
    return typeof result === 'object' && result !== null ? ((result as { additionalContexts?: unknown }).additionalContexts ?? []) : []
  } catch {
    return undefined
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
  } catch {
    return false
  }
}

function isErrorResult(result: unknown): boolean | undefined {
  try {
    return typeof result === 'object' && result !== null ? (result as { isError?: unknown }).isError === true : undefined
  } catch {
    return undefined
  }
}

/** The agents the case's calls and nested calls are made for, whose keys are asked for before any call. */
function callers(s: Scenario): AgentName[] {
  const direct = s.calls.flatMap((call) => (call.agent && !call.lookalikeAgent ? [call.agent] : []))
  const nested = s.tools.flatMap((t) => t.body.steps.flatMap((step) => (step.kind === 'dispatch' && step.agent && step.agent !== 'none' ? [step.agent] : [])))
  return [...new Set([...direct, ...nested])]
}
