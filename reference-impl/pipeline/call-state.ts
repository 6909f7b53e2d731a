/** The per-call state the stages share. Created by materialize; read by every later stage. */
import type {
  ApprovalService,
  CodeDispatchLogListener,
  ExecuteWrapper,
  PostExecuteListener,
  PreExecuteListener,
  ResultObserver,
} from '../../harness/adapter.js'
import type { ToolExecution, ToolExecutionResult, ToolGuard, UserMessage } from '../../harness/spec.js'
import type { RegisteredTool } from '../definition.js'
import type { HookList, ToolTable } from '../layers.js'
import type { Stages } from './stages.js'

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
