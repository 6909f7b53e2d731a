/**
 * The scenario model: every generated case is a plain JSON value. Behaviours are descriptors the
 * interpreter turns into live functions; values that JSON cannot hold are tagged descriptors
 * (`ValueDesc`) built only by the interpreter. A scenario file replays exactly.
 */

/** JSON, where any object with a `$` key describes a value JSON cannot hold. */
export type ValueDesc = null | boolean | number | string | ValueDesc[] | { [k: string]: ValueDesc } | Tagged

export type Tagged =
  | { $: 'bigint' }
  | { $: 'cycle' }
  | { $: 'function' }
  | { $: 'symbol' }
  | { $: 'undefined' }
  | { $: 'nan' }
  | { $: 'infinity' }
  | { $: 'negzero' }
  /** `[1, <hole>, 3]`, or with `of` given `[of, <hole>, of]` (a hole among valid items). */
  | { $: 'sparse'; of?: ValueDesc }
  | { $: 'map' }
  | { $: 'date' }
  | { $: 'instance' }
  | { $: 'boolean-object' }
  /** An object with no prototype (`Object.create(null)`): no toString, no valueOf, so a template literal throws on it. */
  | { $: 'bare' }
  /** A primitive in its wrapper object (`new String('allowed-once')`): equal to it loosely, never exactly. */
  | { $: 'boxed'; value: string | number | boolean }
  | { $: 'promise'; value: ValueDesc }
  | { $: 'throwing-getter' }
  | { $: 'getter'; value: ValueDesc }
  /**
   * A getter that answers its n-th read with `reads[n]` (the last one from then on), counting the
   * reads of the one value built: what a registry reads twice differs between its two reads (IN-1).
   */
  | { $: 'shifting-getter'; reads: ValueDesc[] }
  | { $: 'proxy'; value: ValueDesc }
  /** `[o, o]`: one value `o` built once and held twice, a shared subtree (lossless JSON when `o` is; not a cycle). */
  | { $: 'twice'; value: ValueDesc }
  /** `Object.freeze(o)`: `o` frozen at its root only, what it holds still writable (lossless JSON when `o` is). */
  | { $: 'frozen'; value: ValueDesc }
  /**
   * An Error, with its own string `code` and its own structured details (`data`, as JSON-RPC and MCP
   * errors carry) where given, its own `name` ('AbortError', as `signal.throwIfAborted()` throws),
   * its own `content` (blocks an MCP-style tool error carries; OUT-3: the outcome still reads as text),
   * and its `message` ('toolreg: thrown' unless given; an empty one reads as text all the same).
   */
  | { $: 'error'; code?: string; data?: ValueDesc; name?: string; content?: ValueDesc; message?: string }

export type AgentName = 'A' | 'B'

/** How a hook or body gets its answer: synchronously, after a scheduler point, or never. */
export type Timing = 'sync' | 'await'

export type ClassifierSpec =
  | { kind: 'absent' }
  | { kind: 'returns'; value: ValueDesc }
  | { kind: 'throws' }
  | { kind: 'not-a-function'; value: ValueDesc }
  | { kind: 'getter-returns'; value: ValueDesc }
  /**
   * Answers from its argument: exactly `true` when it is an object with its own `key`, else `false`,
   * or with `throwsWithout` a TypeError (it reads a field of the missing key, as a runtime would).
   */
  | { kind: 'has-key'; key: string; throwsWithout?: true }

export type BodyStep =
  | { kind: 'await' }
  /** `changeAfter`: the body then rewrites the object it deferred (CTX-1: a context is what was passed, when it was passed). */
  | { kind: 'defer'; context: ValueDesc; changeAfter?: true }
  | { kind: 'conclude' }
  /** Keep the run context and call concludeTurn() on it once the call has entered its next stage, after the body returned (CTX-2). */
  | { kind: 'conclude-later' }
  /**
   * Call another tool as a nested call carrying this execution's token as parent (CODE-2), handed
   * this execution's signal, or with `abortedSignal` a signal of its own already aborted (CAN-1);
   * made for this execution's agent, or for `agent` (`none`: for no agent), as a program may (PRE-7, SCP-1).
   */
  | { kind: 'dispatch'; tool: string; args: ValueDesc; abortedSignal?: true; agent?: AgentName | 'none' }

export type DispatchStep = Extract<BodyStep, { kind: 'dispatch' }>

export type BodyOutcome =
  | { kind: 'return'; value: ValueDesc }
  | { kind: 'throw'; thrown: ValueDesc }
  | { kind: 'reject'; thrown: ValueDesc }
  /** Settles only when its signal aborts (a cooperative long-running body). */
  | { kind: 'until-aborted'; value: ValueDesc }

export interface BodySpec {
  steps: BodyStep[]
  outcome: BodyOutcome
  /**
   * A plain function, not an async one: it runs its steps and throws synchronously, or returns a
   * promise of its value (CTX-1 and IN-4 hold for both shapes). A body that waits runs async all the same.
   */
  plain?: true
}

/**
 * A throw, or with `async` the rejection of the promise an async function returns: an error under
 * every reading (a registry that awaits meets the throw; one that does not, a promise that is not JSON).
 */
export type ThrowsSpec = { kind: 'throws'; async?: true }

/** `mutateAfter`: the hook keeps what it returned and rewrites it at the next stage (hostile hooks). */
export type ProjectionSpec = { kind: 'json-text' } | { kind: 'returns'; value: ValueDesc; mutateAfter?: boolean } | ThrowsSpec

/**
 * A realistic value a hostile hook writes: another registered tool's name, another agent's key,
 * another call's callId or token, the field's boolean flipped, or a literal value.
 */
export type AttackValue = { ref: 'other-tool' | 'other-agent' | 'other-call-id' | 'other-token' | 'flip' } | { value: ValueDesc }

/** One write a hostile hook attempts on an object it was handed; `path` is dot-separated. */
export type AttackWrite =
  | { op: 'set'; path: string; to: AttackValue }
  | { op: 'define'; path: string; to: AttackValue }
  | { op: 'delete'; path: string }

/** Writes on the execution (or run context) a hook receives, and on the result, where it gets one. */
export interface Attack {
  exec?: AttackWrite[]
  result?: AttackWrite[]
  /** Writes on the decision this hook returned, made when the call enters its next stage. */
  decision?: AttackWrite[]
}
export type FinalizeSpec = { kind: 'keep' } | { kind: 'returns'; value: ValueDesc } | ThrowsSpec

export interface ExtraField {
  key: string
  symbol?: boolean
  enumerable: boolean
  value: ValueDesc
}

export interface ToolSpec {
  name: string
  scope?: AgentName
  description: string
  parameters: ValueDesc
  outputSchema: ValueDesc
  classifier: ClassifierSpec
  body: BodySpec
  render: ProjectionSpec
  meta?: ProjectionSpec
  finalize?: FinalizeSpec
  timeoutMs?: number
  presentCall?: boolean
  extra?: ExtraField[]
  /** Made with the adapter's defineTool [define]. */
  define?: boolean
  /** The body's writes on its run context, and the finalizer's on what it receives (hostile hooks). */
  attack?: { body?: AttackWrite[]; finalize?: Attack }
}

export type DecisionSpec =
  | { kind: 'delegate' }
  | { kind: 'delegate-twice' }
  /** Returns next()'s decision, keeps next, and calls it again once the call has entered its next stage (PRE-8). */
  | { kind: 'delegate-again-later' }
  /** Awaits next() and then throws (an audit write that fails): the call ends in error all the same (PRE-4, PST-3). */
  | { kind: 'throws-after-next' }
  | { kind: 'returns'; value: ValueDesc }
  | { kind: 'throws' }
  | { kind: 'rejects' }

/** Calls its own disposer when first entered, then does what it does (later calls find it gone; this one does not change). */
interface DisposesSelf {
  disposesSelf?: true
}

/** Decisions that call next() and go on: the listeners inside decide (a throw after next() aside). */
export const DELEGATING = new Set<DecisionSpec['kind']>(['delegate', 'delegate-twice', 'delegate-again-later', 'throws-after-next'])

export interface PreSpec extends DisposesSelf {
  scope?: AgentName
  timing: Timing
  decision: DecisionSpec
  /** Try to rewrite the execution (name, arguments, token) before deciding (IN-1). */
  tamper?: boolean
  attack?: Attack
}

export type GuardSpec = DisposesSelf & {
  scope?: AgentName
  verdict: { kind: 'pass' } | { kind: 'returns'; value: ValueDesc } | { kind: 'throws' }
  attack?: Attack
}

export type WrapperAction =
  | { kind: 'pass' }
  | { kind: 'next-twice' }
  /** Hand the body a replacement signal that never aborts by itself (EXE-2). */
  | { kind: 'replace-signal' }
  /** Call next({}), or with `signalKey` next({ signal: undefined }): no replacement at all (EXE-2). */
  | { kind: 'empty-override'; signalKey?: true }
  /** Return without next(): a made-up result, deep-frozen where `frozen` (as next()'s own results may be). */
  | { kind: 'made-up'; result: ValueDesc; frozen?: true }
  /** Call next() without waiting for it and return a made-up result while the body still runs (CAN-3). */
  | { kind: 'unawaited-next'; result: ValueDesc }
  | { kind: 'throws' }
  | { kind: 'rejects' }
  /** Await next(), then throw: the body's result is lost, the call ends in error (EXE-3). */
  | { kind: 'throws-after-next' }
  /** Await next(), then return a made-up result in place of the body's (EXE-4; CTX-1: the body's contexts stay). */
  | { kind: 'made-up-after-next'; result: ValueDesc }

export interface WrapperSpec extends DisposesSelf {
  scope?: AgentName
  timing: Timing
  action: WrapperAction
  /** `result`: writes on the result next() resolved with, before the wrapper returns it. */
  attack?: Attack
}

export interface PostSpec extends DisposesSelf {
  scope?: AgentName
  timing: Timing
  decision: DecisionSpec
  attack?: Attack
}

/**
 * A per-tool decision, as an app configures one by tool name (a per-tool approval table, a tool's
 * own approval flag): every call to `tool` that the listeners leave undecided is decided `decision`.
 * It is the waterfall's last word, as if one listener registered after all others returned it for
 * calls to `tool` and delegated every other call.
 */
export interface ToolDecisionSpec {
  tool: string
  decision: ValueDesc
}

export interface ObserverSpec {
  scope?: AgentName
  throws: boolean
  /** Calls its own disposer when first notified (calls then run one after another: RES-1). */
  disposesSelf?: true
  /** An async function: it returns a promise, and what it throws becomes that promise's rejection (RES-4). */
  async?: true
  attack?: Attack
}

/**
 * The approval service: with `later` given it answers its first request `value`, each later one the
 * next of `later` (its last from then on), so one case meets several answers, a request each.
 */
export type ApprovalSpec =
  | { kind: 'returns'; timing: Timing; value: ValueDesc; later?: ValueDesc[]; attack?: AttackWrite[] }
  | { kind: 'throws' }
  | { kind: 'rejects' }
  | { kind: 'never' }

/** What a service that returns answers its `n`-th request (from 0). */
export const approvalAnswer = (spec: Extract<ApprovalSpec, { kind: 'returns' }>, n: number): ValueDesc =>
  (n === 0 || !spec.later?.length ? spec.value : spec.later[Math.min(n, spec.later.length) - 1]!)

export interface CallSpec {
  tool: string
  args: ValueDesc
  agent?: AgentName
  /** Abort the caller's signal before execute is called (CAN-1). */
  abortAtEntry?: boolean
  /**
   * Once execute has been called, the caller changes its own arguments object (every object in it
   * that is not frozen gains a key); `shallow-frozen` freezes the top level first, as callers that
   * trust Object.freeze do (IN-1: stages and the body see the snapshot taken at entry).
   */
  callerChangesArgs?: 'live' | 'shallow-frozen'
  /** The reason every abort of this call gives (`abort(null)`, `abort('')`…); a DOMException unless given. */
  abortReason?: ValueDesc
  /** Abort the caller's signal at a point the scheduler chooses. */
  abortScheduled?: boolean
  /**
   * Abort the caller's signal the moment the body settles: after it returned or threw, before any
   * code awaiting it resumes, so the registry's first look at the signal after the body finds it
   * aborted (CAN-3).
   */
  abortAsBodySettles?: boolean
  /**
   * Abort the caller's signal as the first post-execute listener is entered: after the registry
   * looked at the signal for the body's outcome, while post-execute decides (CAN-3 leaves open
   * whether a success then becomes ABORTED; CAN-4 keeps a block or an error).
   */
  abortWhilePostRuns?: boolean
  /**
   * The call carries a copy of its agent's key, equal to it field by field but another object:
   * agents are compared by identity, so it is an agent nothing was registered for (PRE-7).
   */
  lookalikeAgent?: true
  /** A parent token that is not an execution in flight (CODE-5). */
  fakeParent?: boolean
  /** The input carries a `token` of the caller's own, which the registry must not adopt (IN-3). */
  callerToken?: true
  /** Hand execute an input that is not well-typed (IN-4). */
  malformed?: 'not-an-object' | 'no-signal' | 'callId-not-a-string'
  /**
   * Hand execute the arguments object handed to the call run just before, changed in place to this
   * call's arguments (sequential runs only; a fresh object where that one refuses the change): IN-1.
   */
  reusesArgsObject?: true
  /** Hand execute the callId of an earlier call (two calls share a callId; sequential runs only). */
  sameCallIdAs?: number
  /**
   * Hand execute the very input object handed to that earlier call (`sameCallIdAs`): its callId,
   * arguments object and signal. Two executes are two calls all the same (IN-3, RES-1, FIN-2).
   */
  reusesInput?: true
  /**
   * The caller spreads an options object into the input: `parent` and, for a call of no agent,
   * `agent` are own keys holding undefined, which is no parent and no agent (OUT-2: not a nested call).
   */
  spreadsOptions?: true
  /** Run these calls as a program through the code transport (`run_code`) instead [code]. */
  program?: { tool: string; args: ValueDesc }[]
}

export interface Scenario {
  version: 1
  config: { mode?: 'native' | 'code' | 'both'; approval?: ApprovalSpec; timeoutPolicy?: boolean }
  tools: ToolSpec[]
  pre: PreSpec[]
  guards: GuardSpec[]
  wrappers: WrapperSpec[]
  post: PostSpec[]
  observers: ObserverSpec[]
  calls: CallSpec[]
  /** Per-tool decisions, one per tool name at most; absent = none. */
  toolDecisions?: ToolDecisionSpec[]
  /** Run the calls concurrently rather than one after another. */
  concurrent?: boolean
  /**
   * A wrapper that replaces the signal hands next() more than a signal: arguments, a name, a callId,
   * an agent and a token of its own, which the registry must ignore (EXE-2: only the signal).
   */
  overridesMore?: boolean
  /** What every hook, approval service, classifier, projection and finalizer that throws or rejects throws, in place of an Error. */
  hooksThrow?: ValueDesc
}

/** A body whose steps never wait, and that never waits for its signal: one a plain function can run. */
export const neverWaits = (body: BodySpec): boolean =>
  body.outcome.kind !== 'until-aborted' && body.steps.every((step) => step.kind === 'defer' || step.kind === 'conclude' || step.kind === 'conclude-later')

export const emptyScenario = (): Scenario => ({
  version: 1,
  config: {},
  tools: [],
  pre: [],
  guards: [],
  wrappers: [],
  post: [],
  observers: [],
  calls: [],
})
