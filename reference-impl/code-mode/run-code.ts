/**
 * The reserved `run_code` transport. Honours CODE-2 (every sub-call carries the program's
 * execution token as `parent` and so runs the full pipeline), CODE-4 (sub-call content is logged
 * through the dispatch-log waterfall; the program and the model see the original), CTX-3 (the
 * program's call concludes the turn only when a sub-call's final outcome was a success carrying
 * concludesTurn), CAN-3 (on abort or when the time budget runs out the program is interrupted and
 * its sub-calls are aborted, and the body settles after its in-flight sub-calls have settled, or
 * after a bounded grace for those that ignore their abort). The program runs in a WebAssembly
 * sandbox (sandbox.ts) that holds nothing of the host. A program may launch `run_code` itself; a
 * program and the programs it launches, at any depth, hold at most PROGRAMS_PER_TREE sandboxes.
 */
import type { CodeDispatchLogListener, CodeDispatchRecord } from '../../harness/contract/adapter.js'
import type { JsonValue, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolRunContext } from '../../harness/contract/spec.js'
import { RUN_CODE } from '../definition.js'
import { DEFAULT_LIMITS, ProgramError, runSandboxed, SANDBOX_LIMIT, type SubCallReply } from './sandbox.js'

/** How many programs one top-level program and the ones it launches through run_code may run at once. */
export const PROGRAMS_PER_TREE = 4

/** The programs running under one top-level run_code call. */
interface ProgramTree {
  live: number
}

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
  const trees = new Map<unknown, ProgramTree>()
  return {
    name: RUN_CODE,
    description:
      'Run a JavaScript program (the body of an async function). `await tools.<name>(args)` calls a tool ' +
        'and resolves with its value; what the program returns is the result.',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    output: { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] },
    execute: (args, exec) => runProgram(host, trees, args, exec),
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

async function runProgram(
  host: CodeTransportHost, trees: Map<unknown, ProgramTree>, args: JsonValue, exec: ToolRunContext,
): Promise<JsonValue> {
  const code = (args as { code?: unknown } | null)?.code
  if (typeof code !== 'string') {
    throw Object.assign(new Error('run_code needs a string "code"'), { code: 'INVALID_ARGS' })
  }
  // A run_code sub-call's parent is the token of the program that launched it.
  const tree = trees.get(exec.parent) ?? { live: 0 }
  if (tree.live >= PROGRAMS_PER_TREE) {
    throw Object.assign(new Error(`a run_code program and those it launches run at most ${PROGRAMS_PER_TREE} at once`), { code: SANDBOX_LIMIT })
  }
  tree.live++
  trees.set(exec.token, tree)
  let subCalls = 0
  const call = (name: string, subArgs: unknown, signal: AbortSignal) =>
    dispatch(host, exec, { callId: `${exec.callId}/${++subCalls}`, name, arguments: subArgs, signal, parent: exec.token })
  try {
    return await runSandboxed(code, call, exec.signal, { ...DEFAULT_LIMITS, timeBudgetMs: host.timeBudgetMs })
  } catch (error) {
    if (error instanceof ProgramError) throw Object.assign(new Error(error.message), error.code ? { code: error.code } : {})
    throw error
  } finally {
    tree.live--
    trees.delete(exec.token)
  }
}

async function dispatch(host: CodeTransportHost, exec: ToolRunContext, input: ToolExecutionInput): Promise<SubCallReply> {
  const { callId: subCallId, name } = input
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
