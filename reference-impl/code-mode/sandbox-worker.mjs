// A thread for model-written programs, one at a time. Each program gets a fresh QuickJS
// (WebAssembly) runtime — its own heap, nothing of the host in it: the SDK crosses as JSON text,
// and the realm has only ECMAScript built-ins, `tools` and a silent `console`. The thread exists
// so that a program that never yields to its interrupt can be stopped by ending the thread.
// Plain JavaScript so it loads without a transform.
//
// Lifetimes: a sub-call's deferred promise lives in the program's context, so a reply may be
// settled into it only while the program runs. When the program ends, every outstanding deferred
// (sent or still queued) is disposed before the context is, and replies that arrive later, or for
// another program, are dropped. Anything unexpected marks the thread as not reusable.
import { parentPort, workerData } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import base from '@jitl/quickjs-wasmfile-release-sync'

const PRELUDE = String.raw`
const call = globalThis.__dispatch
delete globalThis.__dispatch
const { parse, stringify } = JSON
const tools = new Proxy(Object.create(null), {
  get(_target, name) {
    if (typeof name !== 'string') return undefined
    return async (args) => {
      const reply = parse(await call(name, stringify(args === undefined ? null : args)))
      if (reply.ok) return reply.value
      const error = new Error(reply.message)
      if (reply.code !== undefined) error.code = reply.code
      throw error
    }
  },
})
const quiet = () => undefined
const console = Object.freeze({ log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet })
`

const wrap = (code) => `(() => {${PRELUDE}
return (async () => {
  const value = await (async (tools, console) => {\n${code}\n})(tools, console)
  return stringify(value === undefined ? null : value)
})()
})()`

const GUEST_TEXT = '(e) => { try { return String(e && e.message || e).slice(0, 2000) } catch { return undefined } }'

/** The code a refused sub-call rejects with inside the program. */
const LIMIT = 'SANDBOX_LIMIT'
const PAGE = 64 * 1024

// The whole WebAssembly memory of the engine (its data, stack and the QuickJS heap) is capped:
// this build of QuickJS cannot measure its allocations (no malloc_usable_size), so its own
// setMemoryLimit only refuses single allocations over the limit, never the sum of many.
const { memoryBytes } = workerData
const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, Math.floor(memoryBytes / PAGE)) })
const engine = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmModule: workerData.wasmModule, wasmMemory }))
guardMalloc(engine)

/**
 * The library's own allocations in the heap (a string copied in, a promise capability) ignore a
 * failed malloc and write at address 0. Failing loudly instead ends the program as out of memory.
 */
function guardMalloc(module) {
  const emscripten = module.module // not public API: the Emscripten module the library allocates through
  const malloc = emscripten._malloc
  emscripten._malloc = (size) => {
    const pointer = malloc(size)
    if (pointer === 0) throw new RangeError('out of memory')
    return pointer
  }
}

let current
parentPort.on('message', (message) => {
  if (message.type === 'run') start(message)
  else if (message.type === 'reply' && current?.runId === message.runId) current.reply(message)
})
parentPort.postMessage({ type: 'ready' })

function start(message) {
  let program
  try {
    program = current = new Program(message)
  } catch {
    parentPort.postMessage({ type: 'done', runId: message.runId, reusable: false, ok: false, message: 'run_code program could not start' })
    return
  }
  program.run().then(
    (outcome) => program.end(outcome),
    () => program.end({ ok: false, message: program.failure ?? 'run_code program failed' }, true),
  )
}

class Program {
  constructor({ runId, code, stopFlag, limits }) {
    this.runId = runId
    this.code = code
    this.limits = limits
    this.stop = new Int32Array(stopFlag)
    this.sent = new Map()
    this.queued = []
    this.nextId = 0
    this.argsLeft = limits.memoryBytes
    this.ended = false
    this.broken = false
    this.failure = undefined
    this.wake = () => undefined
    this.runtime = engine.newRuntime()
    this.runtime.setMemoryLimit(limits.memoryBytes)
    this.runtime.setMaxStackSize(limits.stackBytes)
    this.runtime.setInterruptHandler(() => Atomics.load(this.stop, 0) !== 0)
    this.vm = this.runtime.newContext()
    const bridge = this.vm.newFunction('__dispatch', (nameHandle, argsHandle) => this.call(nameHandle, argsHandle))
    this.vm.setProp(this.vm.global, '__dispatch', bridge)
    bridge.dispose()
  }

  /** A sub-call from the program: sent, queued behind the ones in flight, or refused at once. */
  call(nameHandle, argsHandle) {
    try {
      return this.accept(nameHandle, argsHandle)
    } catch (error) {
      // the heap is full: the exception unwinds the engine, and the program ends as out of memory
      this.broken = true
      this.failure = 'run_code program ran out of memory'
      throw error
    }
  }

  accept(nameHandle, argsHandle) {
    const size = this.textLength(nameHandle) + this.textLength(argsHandle)
    if (Number.isNaN(size)) return this.refusal('run_code sub-call arguments are not JSON', 'INVALID_ARGS')
    if (size > this.argsLeft) return this.refusal('run_code sub-calls exceeded the text a program may send')
    if (this.sent.size + this.queued.length >= this.limits.subCallsInFlight + this.limits.subCallsQueued) {
      return this.refusal('run_code program has too many sub-calls waiting')
    }
    this.argsLeft -= size
    const id = ++this.nextId
    const deferred = this.vm.newPromise()
    const name = this.vm.getString(nameHandle)
    if (this.sent.size < this.limits.subCallsInFlight) this.send(id, deferred, name, this.vm.getString(argsHandle))
    else this.queued.push({ id, deferred, name, args: argsHandle.dup() })
    return deferred.handle
  }

  textLength(handle) {
    if (this.vm.typeof(handle) !== 'string') return NaN
    return this.vm.getProp(handle, 'length').consume((length) => this.vm.getNumber(length))
  }

  refusal(message, code = LIMIT) {
    return this.vm.newString(JSON.stringify({ ok: false, message, code }))
  }

  send(id, deferred, name, args) {
    this.sent.set(id, deferred)
    parentPort.postMessage({ type: 'call', runId: this.runId, id, name, args })
  }

  reply({ id, reply }) {
    const deferred = this.sent.get(id)
    if (this.ended || !deferred) return
    this.sent.delete(id)
    try {
      const text = this.vm.newString(reply)
      deferred.resolve(text)
      text.dispose()
      while (this.queued.length > 0 && this.sent.size < this.limits.subCallsInFlight) {
        const next = this.queued.shift()
        const args = this.vm.getString(next.args)
        next.args.dispose()
        this.send(next.id, next.deferred, next.name, args)
      }
    } catch {
      // the heap is full: the program ends as out of memory, and its thread is not reused
      this.broken = true
      this.failure = 'run_code program ran out of memory'
    }
    this.wake()
  }

  async run() {
    const evaluated = this.vm.evalCode(wrap(this.code), 'program.js')
    if (evaluated.error) return this.fail(evaluated.error)
    this.promise = evaluated.value
    for (;;) {
      if (this.failure !== undefined) return { ok: false, message: this.failure }
      const jobs = this.runtime.executePendingJobs()
      if (jobs.error) return this.fail(jobs.error)
      const state = this.vm.getPromiseState(this.promise)
      if (state.type === 'fulfilled') return this.fulfilled(state.value)
      if (state.type === 'rejected') return this.fail(state.error)
      if (this.sent.size === 0 && this.queued.length === 0 && !this.runtime.hasPendingJob()) {
        return { ok: false, message: 'run_code program awaits something that can never settle' }
      }
      await new Promise((resolve) => (this.wake = resolve))
    }
  }

  fulfilled(handle) {
    const text = this.vm.typeof(handle) === 'string' ? this.vm.getString(handle) : undefined
    handle.dispose()
    return text === undefined ? { ok: false, message: 'run_code program returned no JSON' } : { ok: true, value: text }
  }

  fail(handle) {
    const message = Atomics.load(this.stop, 0) !== 0 ? undefined : this.guestText(handle)
    handle.dispose()
    return { ok: false, message: message ?? 'run_code program failed' }
  }

  guestText(handle) {
    const fn = this.vm.evalCode(GUEST_TEXT)
    if (fn.error) return fn.error.dispose()
    const called = this.vm.callFunction(fn.value, this.vm.undefined, handle)
    fn.value.dispose()
    if (called.error) return called.error.dispose()
    const text = this.vm.typeof(called.value) === 'string' ? this.vm.getString(called.value) : undefined
    called.value.dispose()
    return text
  }

  /** Drops every outstanding sub-call, then the context and runtime; only then reports the outcome. */
  end(outcome, broken = false) {
    if (this.ended) return
    this.ended = true
    this.broken ||= broken
    try {
      for (const deferred of this.sent.values()) deferred.dispose()
      for (const { deferred, args } of this.queued) {
        deferred.dispose()
        args.dispose()
      }
      this.sent.clear()
      this.queued = []
      if (this.promise?.alive) this.promise.dispose()
      this.vm.dispose()
      this.runtime.dispose()
    } catch {
      // a runtime that could not be freed leaves the heap in an unknown state
      this.broken = true
    }
    parentPort.postMessage({ type: 'done', runId: this.runId, reusable: !this.broken, ...outcome })
  }
}
