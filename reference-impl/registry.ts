/**
 * The reference registry: registrations, the model-visible projection, classification, the batch
 * driver and `execute`, which runs each call through the stage table in pipeline order.
 */
import type {
  ApprovalService,
  CodeDispatchLogListener,
  CodeDispatchRecord,
  ExecuteWrapper,
  PostExecuteListener,
  PreExecuteListener,
  ResultObserver,
} from '../harness/contract/adapter.js'
import type {
  ToolDefinition,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolGuard,
  ToolSchema,
} from '../harness/contract/spec.js'
import { runBatch } from './batch.js'
import { runCodeTool } from './code-mode/run-code.js'
import { readDefinition, RUN_CODE, type RegisteredTool } from './definition.js'
import { HookList, ToolTable, type Scope } from './layers.js'
import { executionMode } from './mode.js'
import type { CodeModeSetting, RegistryContext } from './pipeline/call-state.js'
import { runCall } from './pipeline/run-call.js'
import { referenceStages, type Stages } from './pipeline/stages.js'
import { modelTools, schemas } from './schemas.js'
import { timeoutPolicy } from './timeout-policy.js'

export interface RegistryOptions {
  /** Code Mode: 'native' (default), 'code' or 'both'. */
  mode?: CodeModeSetting
  /** The approval seam; absent means `ask` is a denial (PRE-5). */
  approval?: ApprovalService
  /** Install the timeout policy as the outermost `tools/execute` wrapper (TMO-2). */
  timeoutPolicy?: boolean
  /** How long a run_code program may run. */
  codeTimeBudgetMs?: number
  /** The pipeline's stages; mutants swap one. */
  stages?: Stages
  /** Where tools are kept and looked up; mutants may subclass it. */
  toolTable?: () => ToolTable
}

export type ToolRegistry = ReturnType<typeof createRegistry>

export function createRegistry(options: RegistryOptions = {}) {
  const stages = options.stages ?? referenceStages
  const events: CodeDispatchRecord[] = []
  const builtins = new Map<string, RegisteredTool>()
  const context: RegistryContext = {
    mode: options.mode ?? 'native',
    approval: options.approval,
    tools: options.toolTable?.() ?? new ToolTable(),
    hooks: {
      pre: new HookList<PreExecuteListener>(),
      guards: new HookList<ToolGuard>(),
      wrappers: new HookList<ExecuteWrapper>(),
      post: new HookList<PostExecuteListener>(),
      observers: new HookList<ResultObserver>(),
      dispatchLog: new HookList<CodeDispatchLogListener>(),
    },
    inFlight: new Set(),
    builtins,
    calls: new WeakMap(),
    stages,
  }
  const execute = (input: ToolExecutionInput): Promise<ToolExecutionResult> => runCall(stages, context, input)
  const classify = (input: ToolExecutionInput): ToolExecutionMode => executionMode(context, input)

  if (context.mode !== 'native') {
    const transport = runCodeTool({
      execute,
      dispatchLogListeners: (agent) => context.hooks.dispatchLog.forCall(agent),
      persist: (event) => events.push(event),
      timeBudgetMs: options.codeTimeBudgetMs ?? 30_000,
      forwardsConclusion: stages.forwardsConclusion,
      logDispatch: stages.logDispatch,
    })
    builtins.set(RUN_CODE, readDefinition(transport, []))
  }
  if (options.timeoutPolicy) context.hooks.wrappers.add(timeoutPolicy(context), undefined)

  return {
    register: (def: ToolDefinition, scope?: Scope): (() => void) => context.tools.add(readDefinition(def), scope),
    guard: (guard: ToolGuard, scope?: Scope) => context.hooks.guards.add(guard, scope),
    onPreExecute: (listener: PreExecuteListener, scope?: Scope) => context.hooks.pre.add(listener, scope),
    onExecute: (wrapper: ExecuteWrapper, scope?: Scope) => context.hooks.wrappers.add(wrapper, scope),
    onPostExecute: (listener: PostExecuteListener, scope?: Scope) => context.hooks.post.add(listener, scope),
    onResult: (observer: ResultObserver, scope?: Scope) => context.hooks.observers.add(observer, scope),
    onCodeDispatchLog: (listener: CodeDispatchLogListener, scope?: Scope) => context.hooks.dispatchLog.add(listener, scope),
    schemas: (scope?: Scope): ToolSchema[] => schemas(context, scope?.agent),
    modelTools: (scope?: Scope): ToolSchema[] => modelTools(context, scope?.agent),
    executionMode: classify,
    execute,
    runBatch: (inputs: readonly ToolExecutionInput[], opts: { maxParallel: number; signal?: AbortSignal }) =>
      runBatch({ execute, executionMode: classify }, inputs, opts),
    codeDispatchEvents: (): readonly CodeDispatchRecord[] => [...events],
    reservedNames: Object.freeze([RUN_CODE]) as readonly string[],
  }
}
