/**
 * The pipeline's shared types: the per-call state the stages share (created by materialize, read by
 * every later stage), what each stage returns, and the stage table's signatures. Types only, so
 * every stage imports this file and this file imports no stage.
 */
import type {
  ApprovalService,
  CodeDispatchLogListener,
  ExecuteWrapper,
  PostExecuteListener,
  PreExecuteListener,
  ResultObserver,
} from '../../harness/contract/adapter.js'
import type { CodeDispatchRecord } from '../../harness/contract/adapter.js'
import type { PreToolDecision, ToolExecution, ToolExecutionResult, ToolGuard, UserMessage } from '../../harness/contract/spec.js'
import type { RegisteredTool } from '../definition.js'
import type { HookList, ToolTable } from '../layers.js'

export type CodeModeSetting = 'native' | 'code' | 'both'

export interface RegistryHooks {
  readonly pre: HookList<PreExecuteListener>
  readonly guards: HookList<ToolGuard>
  readonly wrappers: HookList<ExecuteWrapper>
  readonly post: HookList<PostExecuteListener>
  readonly observers: HookList<ResultObserver>
  readonly dispatchLog: HookList<CodeDispatchLogListener>
}

/** What the pipeline reads from the registry it runs in. */
export interface RegistryContext {
  readonly mode: CodeModeSetting
  readonly approval: ApprovalService | undefined
  readonly tools: ToolTable
  readonly hooks: RegistryHooks
  /** Tokens of executions still in flight: a `parent` must be one of these (CODE-5). */
  readonly inFlight: Set<unknown>
  /** The registry's built-in tools by name (`run_code` in code and both modes). */
  readonly builtins: ReadonlyMap<string, RegisteredTool>
  /** Executions by token, for policies (the timeout wrapper) that need the call's tool. */
  readonly calls: WeakMap<ToolExecution, CallState>
  /** The stage table this registry runs. */
  readonly stages: Stages
}

export interface CallState {
  readonly stages: Stages
  readonly exec: ToolExecution
  /** Snapshotted at entry: re-registering mid-call changes nothing (FIN-1, IN-1). */
  readonly tool: RegisteredTool
  readonly observers: readonly ResultObserver[]
  readonly pre: readonly PreExecuteListener[]
  readonly guards: readonly ToolGuard[]
  readonly wrappers: readonly ExecuteWrapper[]
  readonly post: readonly PostExecuteListener[]
  /** Contexts the body deferred, in order (CTX-1). */
  readonly contexts: UserMessage[]
  /** A deferred context that was not lossless JSON, reported at the source (META-1). */
  contextError: string | undefined
  concluded: boolean
  /** True while the body may still call deferContext/concludeTurn. */
  bodyOpen: boolean
  /** Settles when a started body settles; undefined when no body started (CAN-3). */
  bodySettled: Promise<void> | undefined
}

/** A gate either lets the call go on or ends it with a result. */
export type Gate =
  | { readonly pass: true }
  | { readonly pass: false; readonly result: ToolExecutionResult; readonly runPost: boolean }

export const PASS: Gate = Object.freeze({ pass: true })
export const stop = (result: ToolExecutionResult, runPost: boolean): Gate => ({ pass: false, result, runPost })

export type Materialized =
  /** The tool was not visible: no finalizer runs, observers still see the outcome. */
  | { readonly kind: 'unrouted'; readonly exec: ToolExecution; readonly result: ToolExecutionResult; readonly agent: unknown }
  /** The call ends here, but the visible tool's finalizer still runs. */
  | { readonly kind: 'ended'; readonly call: CallState; readonly result: ToolExecutionResult }
  | { readonly kind: 'call'; readonly call: CallState }


export type PreOutcome =
  | PreToolDecision
  /** A listener threw or rejected (PRE-4). */
  | { kind: 'failed' }


export interface ExecuteOutcome {
  readonly result: ToolExecutionResult
  /** False when a wrapper threw or returned something that is not a result (routing table). */
  readonly runPost: boolean
}


export interface PostOutcome {
  readonly result: ToolExecutionResult
  /** Contexts the decisions added, appended after the body's own (CTX-1). */
  readonly contexts: readonly UserMessage[]
}


export type Listener<D> = (next: () => Promise<D>) => unknown

export interface WaterfallOutcome<D> {
  /** The top listener's normalized decision, or undefined when it threw. */
  readonly decision: D | undefined
  /** Some listener threw or rejected, whether or not an outer listener caught it. */
  readonly threw: boolean
}

/** The stage table a registry runs: the reference passes its own; a mutant swaps one entry. */
export interface Stages {
  resolveTool(registry: RegistryContext, name: string, agent: unknown, parent: unknown): RegisteredTool | undefined
  materialize(registry: RegistryContext, input: unknown): Materialized
  waterfall<D>(listeners: readonly Listener<D>[], fallback: () => D, normalize: (raw: unknown) => D): Promise<WaterfallOutcome<D>>
  preExecute(call: CallState): Promise<PreOutcome>
  isCancelled(signal: AbortSignal): boolean
  approve(call: CallState, service: ApprovalService | undefined, reason: string | undefined): Promise<Gate>
  runGuards(call: CallState): Gate
  fuseSignals(signal: AbortSignal, overrides: { signal?: AbortSignal } | undefined): AbortSignal
  runExecute(call: CallState): Promise<ExecuteOutcome>
  acceptWrapperResult(call: CallState, made: unknown, produced: WeakSet<object>): ToolExecutionResult
  valueToResult(call: CallState, raw: unknown): ToolExecutionResult
  thrownToResult(thrown: unknown): ToolExecutionResult
  cancelOutcome(result: ToolExecutionResult): ToolExecutionResult
  attachContexts(result: ToolExecutionResult, contexts: readonly UserMessage[]): ToolExecutionResult
  postExecute(call: CallState, result: ToolExecutionResult): Promise<PostOutcome>
  finalize(call: CallState, sealed: ToolExecutionResult): ToolExecutionResult
  seal(result: ToolExecutionResult, concluded: boolean): ToolExecutionResult
  notifyObservers(observers: readonly ResultObserver[], exec: ToolExecution, result: ToolExecutionResult): void
  forwardsConclusion(result: ToolExecutionResult): boolean
  logDispatch(listeners: readonly CodeDispatchLogListener[], record: CodeDispatchRecord): Promise<CodeDispatchRecord>
}
