/**
 * The adapter contract of ADAPTER.md (beside this file). An implementation is certified through a module
 * whose default export satisfies `ConformanceAdapter`. The harness reads the implementation's own
 * objects through it, never copies.
 */
import type {
  ApprovalOutcome,
  ContentBlock,
  JsonValue,
  PostToolDecision,
  PreToolDecision,
  ToolDefinition,
  ToolExecution,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolGuard,
} from './spec.js'
import type { Seam } from './seam-names.js'

export type * from './spec.js'
export type { Seam } from './seam-names.js'
export { ERROR_CODES } from './spec.js'

/**
 * Thrown by an adapter when its own machinery fails rather than the registry under test: a peer
 * library's test double (a scripted model, an in-memory transport, a message class), a driver.
 * The case is then a harness error naming the adapter and the seam (exit 2), never a clause
 * failure. Recognised by its name, so an adapter bundled apart from the harness can throw it.
 */
export class AdapterFault extends Error {
  override readonly name = 'AdapterFault'
  constructor(
    readonly seam: Seam | 'driver',
    message: string,
  ) {
    super(message)
  }
}

/** Never throws: what an implementation throws may be a Proxy whose every trap throws. */
export function isAdapterFault(error: unknown): error is AdapterFault {
  try {
    return error instanceof Error && error.name === 'AdapterFault' && typeof (error as { seam?: unknown }).seam === 'string'
  } catch {
    return false
  }
}

export type Profile = 'core' | 'scopes' | 'code' | 'timeout' | 'batch' | 'define'
export const PROFILES: readonly Profile[] = ['core', 'scopes', 'code', 'timeout', 'batch', 'define']

export interface ConformanceAdapter {
  readonly name: string
  readonly version?: string
  /** 'core' is implied; the rest gate clauses. */
  readonly profiles: readonly Profile[]
  /**
   * The seams the library behind this adapter really has (harness/seams.ts); absent = every seam.
   * A clause needing a seam not listed is `not applicable (no <seam> seam)`, never passed.
   * Declare only what the library implements, and translate without repair: the contract's exact
   * words map to the library's exact words, every other generated value (`undefined`, `0`,
   * `'deny'`, `{}`, a throw) reaches the library unchanged. A mapping that turns an odd value into
   * a refusal is repair, and forbidden: it certifies the adapter instead of the library.
   */
  readonly seams?: readonly Seam[]
  create(config: RegistryConfig): RegistryUnderTest | Promise<RegistryUnderTest>
}

export interface RegistryConfig {
  /** [code]; default 'native'. */
  mode?: 'native' | 'code' | 'both'
  /** Installed at the registry's approval seam, replacing any service of the implementation; absent = none. */
  approval?: ApprovalService
  /** [timeout]: install the timeout wrapper. */
  timeoutPolicy?: boolean
}

export interface ApprovalRequest {
  callId: string
  toolName: string
  reason?: string
  signal: AbortSignal
  agent?: unknown
}

export interface ApprovalService {
  request(req: ApprovalRequest): Promise<ApprovalOutcome> | ApprovalOutcome
}

/** A key from `agent()`; absent = global. */
export interface ScopeOption {
  agent?: unknown
}

export type PreExecuteListener = (
  exec: ToolExecution,
  next: () => Promise<PreToolDecision>,
) => Promise<PreToolDecision>
export type ExecuteWrapper = (
  exec: ToolExecution,
  next: (overrides?: { signal?: AbortSignal }) => Promise<ToolExecutionResult>,
) => Promise<ToolExecutionResult>
export type PostExecuteListener = (
  exec: ToolExecution,
  result: ToolExecutionResult,
  next: () => Promise<PostToolDecision>,
) => Promise<PostToolDecision>
export type ResultObserver = (exec: ToolExecution, result: ToolExecutionResult) => void

export interface CodeDispatchRecord {
  subCallId: string
  name: string
  isError: boolean
  content: ContentBlock[]
}
export type CodeDispatchLogListener = (
  d: CodeDispatchRecord,
  next: () => Promise<ContentBlock[]>,
) => Promise<ContentBlock[]>

export interface RegistryUnderTest {
  /** A stable opaque caller key for this name; compared against exec.agent by identity. */
  agent(name: string): unknown
  register(def: ToolDefinition, opts?: ScopeOption): () => void
  guard(guard: ToolGuard, opts?: ScopeOption): () => void
  onPreExecute(l: PreExecuteListener, opts?: ScopeOption): () => void
  /**
   * [tool-decisions seam] Every call to the tool named `tool` that the listeners leave undecided is
   * decided `decision`: as if a listener registered after all others returned it for that name and
   * delegated every other call. The value is generated and may be malformed (PRE-3): install it as
   * the library's own per-tool setting, translating only the contract's exact allow, deny and ask.
   */
  decideTool?(tool: string, decision: unknown): () => void
  onExecute(w: ExecuteWrapper, opts?: ScopeOption): () => void
  onPostExecute(l: PostExecuteListener, opts?: ScopeOption): () => void
  onResult(o: ResultObserver, opts?: ScopeOption): () => void
  schemas(opts?: ScopeOption): readonly unknown[]
  executionMode(input: ToolExecutionInput): ToolExecutionMode
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>
  /** Default: result.error?.code. */
  errorCode?(result: ToolExecutionResult): string | undefined
  /** Names generators must not register. */
  reservedNames?: readonly string[]
  dispose?(): void | Promise<void>

  /** [define] adds argument validation. */
  defineTool?(def: ToolDefinition): ToolDefinition
  /** [batch] */
  runBatch?(
    inputs: readonly ToolExecutionInput[],
    opts: { maxParallel: number; signal?: AbortSignal },
  ): Promise<ToolExecutionResult[]>
  /** [code] what a model request carries. */
  modelTools?(opts?: ScopeOption): readonly unknown[] | Promise<readonly unknown[]>
  /** [code] run_code arguments for a program making these calls. */
  codeProgram?(
    calls: readonly { name: string; arguments: JsonValue }[],
    opts?: { concurrent?: boolean },
  ): JsonValue
  /** [code] */
  onCodeDispatchLog?(l: CodeDispatchLogListener, opts?: ScopeOption): () => void
  /** [code] what was persisted. */
  codeDispatchEvents?(): readonly CodeDispatchRecord[]
}
