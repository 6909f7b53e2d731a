/**
 * The reserved `run_code` transport. Honours CODE-2 (every sub-call carries the program's
 * execution token as `parent` and so runs the full pipeline), CODE-4 (sub-call content is logged
 * through the dispatch-log waterfall; the program and the model see the original), CTX-3 (the
 * program's call concludes the turn only when a sub-call's final outcome was a success carrying
 * concludesTurn), CAN-3 (on abort or when the time budget runs out the program is interrupted, and
 * the body settles only after its in-flight sub-calls have settled). The program runs in a
 * WebAssembly sandbox (sandbox.ts) that holds nothing of the host.
 */
import type { CodeDispatchLogListener, CodeDispatchRecord } from '../../harness/contract/adapter.js'
import type { JsonValue, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolRunContext } from '../../harness/contract/spec.js'
import { RUN_CODE } from '../definition.js'
import { DEFAULT_LIMITS, ProgramError, runSandboxed, type SubCallReply } from './sandbox.js'

export interface CodeTransportHost {
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>
  dispatchLogListeners(agent: unknown): readonly CodeDispatchLogListener[]
  persist(event: CodeDispatchRecord): void
  readonly timeBudgetMs: number
  /** CTX-3: whether a sub-call's final outcome ends the program's turn. */
  forwardsConclusion(result: ToolExecutionResult): boolean
  /** CODE-4: the dispatch-log waterfall. */
  logDispatch(listeners: readonly CodeDispatchLogListener[], record: CodeDispatchRecord): Promise<CodeDispatchRecord>
}

/** CTX-3: only an authoritative nested success carrying concludesTurn ends the outer turn. */
export const forwardsConclusion = (result: ToolExecutionResult): boolean => !result.isError && result.concludesTurn === true

export function runCodeTool(host: CodeTransportHost): ToolDefinition {
  return {
    name: RUN_CODE,
    description:
      'Run a JavaScript program (the body of an async function). `await tools.<name>(args)` calls a tool ' +
        'and resolves with its value; what the program returns is the result.',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    output: { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] },
    execute: (args, exec) => runProgram(host, args, exec),
  }
}

/** The run_code arguments for a program that makes these calls, in order or concurrently. */
export function codeProgram(calls: readonly { name: string; arguments: JsonValue }[], opts?: { concurrent?: boolean }): JsonValue {
  const invocations = calls.map(
    (c) => `tools[${JSON.stringify(c.name)}](${JSON.stringify(c.arguments)}).then((value) => ({ value }), (e) => ({ error: e.code ?? 'ERROR' }))`,
  )
  const code = opts?.concurrent
    ? `return await Promise.all([${invocations.join(', ')}])`
    : `const out = []\n${invocations.map((i) => `out.push(await ${i})`).join('\n')}\nreturn out`
  return { code }
}

async function runProgram(host: CodeTransportHost, args: JsonValue, exec: ToolRunContext): Promise<JsonValue> {
  const code = (args as { code?: unknown } | null)?.code
  if (typeof code !== 'string') {
    throw Object.assign(new Error('run_code needs a string "code"'), { code: 'INVALID_ARGS' })
  }
  let subCalls = 0
  const call = (name: string, subArgs: unknown) => dispatch(host, exec, `${exec.callId}/${++subCalls}`, name, subArgs)
  try {
    return await runSandboxed(code, call, exec.signal, { ...DEFAULT_LIMITS, timeBudgetMs: host.timeBudgetMs })
  } catch (error) {
    if (error instanceof ProgramError) throw Object.assign(new Error(error.message), error.code ? { code: error.code } : {})
    throw error
  }
}

async function dispatch(
  host: CodeTransportHost, exec: ToolRunContext, subCallId: string, name: string, args: unknown,
): Promise<SubCallReply> {
  const input: ToolExecutionInput = { callId: subCallId, name, arguments: args, signal: exec.signal, parent: exec.token }
  if (exec.agent !== undefined) input.agent = exec.agent
  const result = await host.execute(input)
  if (host.forwardsConclusion(result)) exec.concludeTurn()
  const record = { subCallId, name, isError: result.isError, content: result.content }
  try {
    host.persist(await host.logDispatch(host.dispatchLogListeners(exec.agent), record))
  } catch {
    host.persist(record)
  }
  return result.isError
    ? { ok: false, message: result.error.message, code: result.error.code }
    : { ok: true, value: result.value }
}
