/**
 * A code-mode registry for the sandbox tests, with tools whose executions a probe watches: how
 * many run at once, how much argument text reached the host, and how many were aborted.
 *   wait({ ms })     settles after ms, or rejects as soon as it is aborted
 *   hang()           settles only when aborted
 *   stubborn({ ms }) ignores its abort and settles after ms
 *   fail()           throws a tool error with code E_FAIL
 *   big({ n })       returns a string of n characters
 */
import type { JsonValue, ToolExecutionResult, ToolRunContext } from '../../harness/contract/spec.js'
import { createRegistry, type ToolRegistry } from '../index.js'
import { call, tool } from './helpers.js'

export interface SubCallProbe {
  running: number
  maxRunning: number
  started: number
  aborted: number
  argumentChars: number
}

const anyOutput = { schema: {}, render: (_args: JsonValue, value: JsonValue) => [{ type: 'text' as const, text: typeof value }] }

const whenAborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function sandboxRegistry(budgetMs: number): { registry: ToolRegistry; probe: SubCallProbe } {
  const registry = createRegistry({ mode: 'code', codeTimeBudgetMs: budgetMs })
  const probe: SubCallProbe = { running: 0, maxRunning: 0, started: 0, aborted: 0, argumentChars: 0 }
  const watched = (name: string, body: (args: { ms?: number; n?: number }, exec: ToolRunContext) => Promise<JsonValue>) =>
    registry.register(tool({
      name,
      output: anyOutput,
      execute: async (args, exec) => {
        probe.started++
        probe.argumentChars += JSON.stringify(args).length
        probe.maxRunning = Math.max(probe.maxRunning, ++probe.running)
        exec.signal.addEventListener('abort', () => probe.aborted++, { once: true })
        try {
          return await body((args ?? {}) as { ms?: number; n?: number }, exec)
        } finally {
          probe.running--
        }
      },
    }))
  watched('wait', async (args, exec) => Promise.race([sleep(args.ms ?? 0).then(() => args as JsonValue), whenAborted(exec.signal)]))
  watched('hang', async (_args, exec) => whenAborted(exec.signal))
  watched('stubborn', async (args) => sleep(args.ms ?? 0).then(() => args as JsonValue))
  watched('fail', async () => {
    throw Object.assign(new Error('fails'), { code: 'E_FAIL' })
  })
  watched('big', async (args) => 'x'.repeat(args.n ?? 0))
  return { registry, probe }
}

/** Runs one program through run_code, on a call with an agent (CODE-4 logs its sub-calls). */
export function runProgram(registry: ToolRegistry, code: string, signal = new AbortController().signal): Promise<ToolExecutionResult> {
  return registry.execute(call('run_code', { code }, { agent: {}, signal }))
}
