/**
 * The code transport's sandbox, host side. A model-written program runs in QuickJS compiled to
 * WebAssembly (sandbox-worker.mjs) in a fresh runtime of its own, on a thread that serves one
 * program at a time: a separate heap with no host object in it — no `process`, `require`, `import()`, file system, network or timers; the tools SDK and
 * a silent `console` only. Its memory and stack are capped inside QuickJS; its time budget and
 * the call's signal interrupt it, and a program that does not yield to the interrupt is
 * terminated with its thread (a thread is reused only after a program that ended on its own). Every way out ends as a rejected program (an error outcome).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { JsonValue } from '../../harness/contract/spec.js'

export type SubCallReply = { ok: true; value: JsonValue } | { ok: false; message: string; code?: string }

export interface SandboxLimits {
  readonly timeBudgetMs: number
  readonly memoryBytes: number
  readonly stackBytes: number
}

export const DEFAULT_LIMITS: SandboxLimits = { timeBudgetMs: 5_000, memoryBytes: 32 * 2 ** 20, stackBytes: 512 * 2 ** 10 }

/** How long a program that ignores its interrupt keeps its thread before the thread is ended. */
const GRACE_MS = 100

/** A program's way out: its own error, an abort, or a limit it hit. */
export class ProgramError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message)
  }
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'call'; id: number; name: string; args: string }
  | { type: 'done'; ok: true; value: string }
  | { type: 'done'; ok: false; message: string }

const WORKER = new URL('./sandbox-worker.mjs', import.meta.url)
const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly
let compiled: Promise<object> | undefined
const wasm = () => (compiled ??= readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then(compile))

/** A thread with QuickJS loaded, waiting for programs; never keeps the process alive. */
function startThread(): Promise<Worker> {
  return wasm().then(
    (wasmModule) =>
      new Promise<Worker>((resolve, reject) => {
        const worker = new Worker(WORKER, {
          workerData: { wasmModule },
          resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
          stdout: true,
          stderr: true,
        })
        worker.unref()
        worker.once('message', () => resolve(worker))
        worker.once('error', reject)
      }),
  )
}

/** Threads whose last program ended on its own; a thread that had to be stopped is never reused. */
const idle: Worker[] = []
const MAX_IDLE = 2

function takeThread(): Promise<Worker> {
  const thread = idle.pop()
  return thread ? Promise.resolve(thread) : startThread()
}

function giveBack(thread: Worker): void {
  thread.removeAllListeners('message')
  thread.removeAllListeners('error')
  thread.removeAllListeners('exit')
  if (idle.length < MAX_IDLE) idle.push(thread)
  else void thread.terminate()
}

/** Runs `code` (the body of an async function of `tools`) and resolves with what it returns. */
export async function runSandboxed(
  code: string,
  dispatch: (name: string, args: unknown) => Promise<SubCallReply>,
  signal: AbortSignal,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<JsonValue> {
  if (signal.aborted) throw new ProgramError('run_code was aborted', 'ABORTED')
  const stopFlag = new SharedArrayBuffer(4)
  const worker = await takeThread()
  worker.postMessage({ type: 'run', code, stopFlag, limits })
  const inFlight = new Set<Promise<void>>()
  try {
    return await new Promise<JsonValue>((resolve, reject) => {
      let finished = false
      let killTimer: ReturnType<typeof setTimeout> | undefined
      const finish = (settle: () => void, reusable = false) => {
        if (finished) return
        finished = true
        clearTimeout(budget)
        clearTimeout(killTimer)
        signal.removeEventListener('abort', onAbort)
        if (reusable) giveBack(worker)
        else void worker.terminate()
        settle()
      }
      const interrupt = (error: ProgramError) => {
        Atomics.store(new Int32Array(stopFlag), 0, 1)
        killTimer ??= setTimeout(() => finish(() => reject(error)), GRACE_MS)
        return error
      }
      const onAbort = () => interrupt(new ProgramError('run_code was aborted', 'ABORTED'))
      const budget = setTimeout(
        () => interrupt(new ProgramError(`run_code exceeded its time budget of ${limits.timeBudgetMs} ms`)),
        limits.timeBudgetMs,
      )
      signal.addEventListener('abort', onAbort, { once: true })
      worker.once('error', () => finish(() => reject(new ProgramError('run_code program ended its thread'))))
      worker.once('exit', () => finish(() => reject(new ProgramError('run_code program ended its thread'))))
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') return
        if (message.type === 'done') {
          const stopped = Atomics.load(new Int32Array(stopFlag), 0) !== 0
          if (stopped) return finish(() => reject(signal.aborted ? abortError() : budgetError(limits)))
          if (message.ok) return finish(() => resolveJson(message.value, resolve, reject), true)
          return finish(() => reject(new ProgramError(message.message)), true)
        }
        const task = reply(dispatch, message.name, message.args).then((answer) => {
          inFlight.delete(task)
          if (!finished) worker.postMessage({ id: message.id, reply: JSON.stringify(answer) })
        })
        inFlight.add(task)
      })
    })
  } finally {
    // CAN-3: the program's call settles only after its sub-calls have.
    await Promise.allSettled([...inFlight])
  }
}

function resolveJson(text: string, resolve: (value: JsonValue) => void, reject: (error: Error) => void) {
  try {
    resolve(JSON.parse(text) as JsonValue)
  } catch {
    reject(new ProgramError('run_code program returned no JSON'))
  }
}

const abortError = () => new ProgramError('run_code was aborted', 'ABORTED')
const budgetError = (limits: SandboxLimits) => new ProgramError(`run_code exceeded its time budget of ${limits.timeBudgetMs} ms`)

async function reply(dispatch: (name: string, args: unknown) => Promise<SubCallReply>, name: string, args: string) {
  try {
    return await dispatch(name, JSON.parse(args) as unknown)
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'sub-call failed' } satisfies SubCallReply
  }
}
