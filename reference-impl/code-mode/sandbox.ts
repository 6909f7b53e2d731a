/**
 * The code transport's sandbox, host side. A model-written program runs in QuickJS compiled to
 * WebAssembly (sandbox-worker.mjs) in a fresh runtime of its own, on a thread that serves one
 * program at a time: a separate heap with no host object in it — no `process`, `require`,
 * `import()`, file system, network or timers; the tools SDK and a silent `console` only.
 *
 * Limits, for the whole program including its sub-calls: the thread's WebAssembly memory is capped
 * at `memoryBytes` and its JavaScript heap by `resourceLimits`; at most `memoryBytes` characters of
 * sub-call text cross each way; at most `subCallsInFlight` sub-calls run at once and
 * `subCallsQueued` more wait inside the sandbox (beyond that a sub-call is refused). When the time
 * budget ends or the call's signal aborts, the program is interrupted and every sub-call it started
 * is aborted; a program that does not yield to the interrupt loses its thread. Sub-calls still
 * running when the program ends are aborted too, and their replies are dropped. Every way out —
 * the thread crashing included — ends as a rejected program (an error outcome), never as an error
 * of the host process.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { JsonValue } from '../../harness/contract/spec.js'

export type SubCallReply = { ok: true; value: JsonValue } | { ok: false; message: string; code?: string }

/** Runs one sub-call; `signal` aborts when the program's budget ends, its call aborts, or it ends. */
export type SubCallDispatch = (name: string, args: unknown, signal: AbortSignal) => Promise<SubCallReply>

export interface SandboxLimits {
  readonly timeBudgetMs: number
  readonly memoryBytes: number
  readonly stackBytes: number
  readonly subCallsInFlight: number
  readonly subCallsQueued: number
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeBudgetMs: 5_000,
  memoryBytes: 32 * 2 ** 20,
  stackBytes: 512 * 2 ** 10,
  subCallsInFlight: 8,
  subCallsQueued: 1_000,
}

/** How long a program that ignores its interrupt keeps its thread before the thread is ended. */
const GRACE_MS = 100
/** How long an ended program waits for its aborted sub-calls to settle before it settles anyway. */
export const SUB_CALL_GRACE_MS = 1_000

/** The code a refused sub-call fails with inside the program. */
export const SANDBOX_LIMIT = 'SANDBOX_LIMIT'

/** A program's way out: its own error, an abort, or a limit it hit. */
export class ProgramError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message)
  }
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'call'; runId: number; id: number; name: string; args: string }
  | { type: 'done'; runId: number; reusable: boolean; ok: true; value: string }
  | { type: 'done'; runId: number; reusable: boolean; ok: false; message: string }

const WORKER = new URL('./sandbox-worker.mjs', import.meta.url)
const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly
let compiled: Promise<object> | undefined
const wasm = () => (compiled ??= readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then(compile))

interface Thread {
  readonly worker: Worker
  readonly memoryBytes: number
}

/** A thread with QuickJS loaded, waiting for programs; never keeps the process alive. */
async function startThread(memoryBytes: number): Promise<Thread> {
  const wasmModule = await wasm()
  const worker = new Worker(WORKER, {
    workerData: { wasmModule, memoryBytes },
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  })
  worker.unref()
  const thread = { worker, memoryBytes }
  // Kept for the thread's life: its errors reach the program it runs (through 'exit'), never the process.
  worker.on('error', () => undefined)
  worker.on('exit', () => forget(thread))
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve())
    worker.once('exit', () => reject(new ProgramError('run_code could not start its thread')))
  })
  return thread
}

/** Threads whose last program ended on its own and cleanly; a thread that had to be stopped is never reused. */
const idle: Thread[] = []
const MAX_IDLE = 2

function takeThread(memoryBytes: number): Promise<Thread> {
  const at = idle.findIndex((thread) => thread.memoryBytes === memoryBytes)
  return at >= 0 ? Promise.resolve(idle.splice(at, 1)[0]!) : startThread(memoryBytes)
}

function giveBack(thread: Thread): void {
  if (idle.length < MAX_IDLE) idle.push(thread)
  else void thread.worker.terminate()
}

function forget(thread: Thread): void {
  const at = idle.indexOf(thread)
  if (at >= 0) idle.splice(at, 1)
}

let runs = 0

/** Runs `code` (the body of an async function of `tools`) and resolves with what it returns. */
export async function runSandboxed(
  code: string,
  dispatch: SubCallDispatch,
  signal: AbortSignal,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<JsonValue> {
  if (signal.aborted) throw abortError()
  const thread = await takeThread(limits.memoryBytes)
  if (signal.aborted) {
    giveBack(thread)
    throw abortError()
  }
  return new Promise<JsonValue>((resolve, reject) => runOn(thread, { code, dispatch, signal, limits, resolve, reject }))
}

interface Run {
  readonly code: string
  readonly dispatch: SubCallDispatch
  readonly signal: AbortSignal
  readonly limits: SandboxLimits
  resolve(value: JsonValue): void
  reject(error: Error): void
}

function runOn(thread: Thread, run: Run): void {
  const { worker } = thread
  const { signal, limits } = run
  const runId = ++runs
  const stopFlag = new SharedArrayBuffer(4)
  const subCalls = new AbortController()
  const inFlight = new Set<Promise<void>>()
  let repliesLeft = limits.memoryBytes
  let ended = false
  let killTimer: ReturnType<typeof setTimeout> | undefined

  /** Ends the run once: the thread is kept or ended, sub-calls are aborted and given a grace to settle. */
  const end = (settle: () => void, reusable: boolean) => {
    if (ended) return
    ended = true
    clearTimeout(budget)
    clearTimeout(killTimer)
    signal.removeEventListener('abort', onAbort)
    worker.off('message', onMessage)
    worker.off('exit', onExit)
    subCalls.abort()
    if (reusable) giveBack(thread)
    else void worker.terminate()
    // CAN-3: the program's call settles after its sub-calls have, or after a grace for those that ignore their abort.
    void settledWithin([...inFlight], SUB_CALL_GRACE_MS).then(settle)
  }
  const interrupt = (error: ProgramError) => {
    Atomics.store(new Int32Array(stopFlag), 0, 1)
    subCalls.abort()
    killTimer ??= setTimeout(() => end(() => run.reject(error), false), GRACE_MS)
  }
  const onAbort = () => interrupt(abortError())
  const budget = setTimeout(() => interrupt(budgetError(limits)), limits.timeBudgetMs)
  const onExit = () => end(() => run.reject(new ProgramError('run_code program ended its thread')), false)
  const onMessage = (message: WorkerMessage) => {
    // A call the program makes after its budget ended or its call aborted is never started.
    if (message.type === 'ready' || message.runId !== runId || ended || (message.type === 'call' && subCalls.signal.aborted)) return
    if (message.type === 'done') {
      const stopped = Atomics.load(new Int32Array(stopFlag), 0) !== 0
      if (stopped) return end(() => run.reject(signal.aborted ? abortError() : budgetError(limits)), false)
      if (message.ok) return end(() => resolveJson(message.value, run), message.reusable)
      return end(() => run.reject(new ProgramError(message.message)), message.reusable)
    }
    const task = reply(run.dispatch, message.name, message.args, subCalls.signal).then((answer) => {
      inFlight.delete(task)
      if (ended) return
      let text = JSON.stringify(answer)
      if (text.length > repliesLeft) text = JSON.stringify(refusal('run_code sub-call replies exceeded the text a program may receive'))
      else repliesLeft -= text.length
      worker.postMessage({ type: 'reply', runId, id: message.id, reply: text })
    })
    inFlight.add(task)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  worker.on('message', onMessage)
  worker.on('exit', onExit)
  worker.postMessage({ type: 'run', runId, code: run.code, stopFlag, limits })
}

/** Resolves when every task has settled, or after `ms`, whichever comes first. */
function settledWithin(tasks: Promise<void>[], ms: number): Promise<void> {
  if (tasks.length === 0) return Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  return Promise.race([Promise.allSettled(tasks), late]).then(() => clearTimeout(timer))
}

function resolveJson(text: string, run: Run) {
  try {
    run.resolve(JSON.parse(text) as JsonValue)
  } catch {
    run.reject(new ProgramError('run_code program returned no JSON'))
  }
}

const refusal = (message: string): SubCallReply => ({ ok: false, message, code: SANDBOX_LIMIT })
const abortError = () => new ProgramError('run_code was aborted', 'ABORTED')
const budgetError = (limits: SandboxLimits) => new ProgramError(`run_code exceeded its time budget of ${limits.timeBudgetMs} ms`)

/** Runs one sub-call on a signal of its own, aborted with the program's, so its listeners go with it. */
async function reply(dispatch: SubCallDispatch, name: string, args: string, program: AbortSignal): Promise<SubCallReply> {
  const own = new AbortController()
  const abort = () => own.abort()
  program.addEventListener('abort', abort, { once: true })
  try {
    return await dispatch(name, JSON.parse(args) as unknown, own.signal)
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'sub-call failed' }
  } finally {
    program.removeEventListener('abort', abort)
  }
}
