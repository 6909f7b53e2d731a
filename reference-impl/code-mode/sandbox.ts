/**
 * The code transport's sandbox, host side. A model-written program runs in QuickJS compiled to
 * WebAssembly (sandbox-worker.mjs), on a thread of its own: a separate heap with no host object
 * in it — no `process`, `require`, `import()`, file system, network or timers; the tools SDK and
 * a silent `console` only. Its memory and stack are capped inside QuickJS; its time budget and
 * the call's signal interrupt it, and a program that does not yield to the interrupt is
 * terminated with its thread. Every way out ends as a rejected program (an error outcome).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { JsonValue } from '../../harness/spec.js'

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

/** A thread with QuickJS loaded, waiting for its program; never keeps the process alive. */
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

let spare: Promise<Worker> | undefined
/** The thread started for the previous program's successor; a new spare starts in its place. */
function takeThread(): Promise<Worker> {
  const thread = spare ?? startThread()
  spare = startThread()
  spare.catch(() => (spare = undefined))
  return thread
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
  worker.postMessage({ code, stopFlag, limits })
  const inFlight = new Set<Promise<void>>()
  try {
    return await new Promise<JsonValue>((resolve, reject) => {
      let finished = false
      let killTimer: ReturnType<typeof setTimeout> | undefined
      const finish = (settle: () => void) => {
        if (finished) return
        finished = true
        clearTimeout(budget)
        clearTimeout(killTimer)
        signal.removeEventListener('abort', onAbort)
        void worker.terminate()
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
      worker.on('error', () => finish(() => reject(new ProgramError('run_code program ended its thread'))))
      worker.on('exit', () => finish(() => reject(new ProgramError('run_code program ended its thread'))))
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') return
        if (message.type === 'done') {
          const stopped = Atomics.load(new Int32Array(stopFlag), 0) !== 0
          if (stopped) return finish(() => reject(signal.aborted ? abortError() : budgetError(limits)))
          if (message.ok) return finish(() => resolve(JSON.parse(message.value) as JsonValue))
          return finish(() => reject(new ProgramError(message.message)))
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

const abortError = () => new ProgramError('run_code was aborted', 'ABORTED')
const budgetError = (limits: SandboxLimits) => new ProgramError(`run_code exceeded its time budget of ${limits.timeBudgetMs} ms`)

async function reply(dispatch: (name: string, args: unknown) => Promise<SubCallReply>, name: string, args: string) {
  try {
    return await dispatch(name, JSON.parse(args) as unknown)
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'sub-call failed' } satisfies SubCallReply
  }
}
