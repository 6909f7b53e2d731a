/**
 * The shapes of SPEC.md (beside this file), as TypeScript types. Implementations may carry more fields;
 * only the model-visible projection (SCH-1) is checked for exact keys.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue }

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
export type UserMessage = { role: 'user'; content: ContentBlock[] }

export interface ToolSchema {
  name: string
  description: string
  parameters: JsonValue
}

export interface ToolOutputDefinition {
  readonly schema: JsonValue
  render(args: JsonValue, value: JsonValue): ContentBlock[]
  presentationMeta?(args: JsonValue, value: JsonValue): JsonValue
}

export interface ToolDefinition extends ToolSchema {
  execute(args: JsonValue, exec: ToolRunContext): Promise<JsonValue>
  output: ToolOutputDefinition
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ContentBlock[] | undefined
  timeoutMs?: number
  isConcurrencySafe?(args: JsonValue): boolean
  presentCall?(args: JsonValue): JsonValue | undefined
  presentResult?(args: JsonValue, result: ToolExecutionResult): JsonValue | undefined
}

export interface ToolExecutionInput {
  callId: string
  name: string
  arguments: unknown
  signal: AbortSignal
  agent?: unknown
  parent?: unknown
}

export interface ToolExecution {
  readonly token: unknown
  readonly callId: string
  readonly name: string
  readonly arguments: JsonValue
  readonly signal: AbortSignal
  readonly agent?: unknown
  readonly parent?: unknown
}

export interface ToolRunContext extends ToolExecution {
  deferContext(context: UserMessage): void
  concludeTurn(): void
}

export type ToolSuccess = {
  isError: false
  value: JsonValue
  content: ContentBlock[]
  meta?: JsonValue
  additionalContexts?: UserMessage[]
  concludesTurn?: true
}
export type ToolFailure = {
  isError: true
  error: { message: string; code?: string }
  content: ContentBlock[]
  meta?: JsonValue
  additionalContexts?: UserMessage[]
}
export type ToolExecutionResult = ToolSuccess | ToolFailure

export type PreToolDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; reason?: string }

export type PostToolDecision =
  | { kind: 'accept'; content?: ContentBlock[]; additionalContexts?: UserMessage[] }
  | { kind: 'accept'; value: JsonValue; additionalContexts?: UserMessage[] }
  | { kind: 'block'; feedback: ContentBlock[]; additionalContexts?: UserMessage[] }

export type ToolGuard = (exec: ToolExecution) => string | undefined
export type ApprovalOutcome = 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable'
export type ToolExecutionMode = { kind: 'parallel' } | { kind: 'exclusive' }

export const ERROR_CODES = [
  'UNKNOWN_TOOL',
  'INVALID_ARGS',
  'INVALID_TOOL_OUTPUT',
  'ABORTED',
  'ABORTED_BEFORE_DISPATCH',
  'TOOL_TIMEOUT',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** What a `tools/execute` wrapper may hand to `next`: only the signal can be replaced (EXE-2). */
export interface ExecuteOverrides {
  signal?: AbortSignal
}
