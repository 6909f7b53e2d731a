// A thread for model-written programs, one at a time. Each program gets a fresh QuickJS
// (WebAssembly) runtime — its own heap, nothing of the host in it: the SDK crosses as JSON text,
// and the realm has only ECMAScript built-ins, `tools` and a silent `console`. The thread exists
// so that a program that never yields to its interrupt can be stopped by ending the thread.
// Plain JavaScript so it loads without a transform.
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

const engine = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmModule: workerData.wasmModule }))

let current
parentPort.on('message', (message) => {
  if (message.type === 'run') {
    current = new Program(message)
    void current.run().finally(() => current.dispose())
  } else current?.reply(message)
})
parentPort.postMessage({ type: 'ready' })

class Program {
  constructor({ code, stopFlag, limits }) {
    this.code = code
    this.stop = new Int32Array(stopFlag)
    this.waiting = new Map()
    this.nextId = 0
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

  call(nameHandle, argsHandle) {
    const id = ++this.nextId
    const deferred = this.vm.newPromise()
    this.waiting.set(id, deferred)
    parentPort.postMessage({ type: 'call', id, name: this.vm.getString(nameHandle), args: this.vm.getString(argsHandle) })
    return deferred.handle
  }

  reply(message) {
    const deferred = this.waiting.get(message.id)
    if (!deferred) return
    this.waiting.delete(message.id)
    const text = this.vm.newString(message.reply)
    deferred.resolve(text)
    text.dispose()
    this.wake()
  }

  async run() {
    const evaluated = this.vm.evalCode(wrap(this.code), 'program.js')
    if (evaluated.error) return this.fail(evaluated.error)
    const promise = evaluated.value
    try {
      for (;;) {
        const jobs = this.runtime.executePendingJobs()
        if (jobs.error) return this.fail(jobs.error)
        const state = this.vm.getPromiseState(promise)
        if (state.type === 'fulfilled') return this.fulfilled(state.value)
        if (state.type === 'rejected') return this.fail(state.error)
        if (this.waiting.size === 0 && !this.runtime.hasPendingJob()) {
          return done({ ok: false, message: 'run_code program awaits something that can never settle' })
        }
        await new Promise((resolve) => (this.wake = resolve))
      }
    } finally {
      promise.dispose()
    }
  }

  fulfilled(handle) {
    const text = this.vm.typeof(handle) === 'string' ? this.vm.getString(handle) : undefined
    handle.dispose()
    done(text === undefined ? { ok: false, message: 'run_code program returned no JSON' } : { ok: true, value: text })
  }

  fail(handle) {
    const message = Atomics.load(this.stop, 0) !== 0 ? undefined : this.guestText(handle)
    handle.dispose()
    done({ ok: false, message: message ?? 'run_code program failed' })
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

  dispose() {
    for (const deferred of this.waiting.values()) deferred.dispose()
    try {
      this.vm.dispose()
      this.runtime.dispose()
    } catch {
      // a runtime that leaked handles is dropped with its heap; the thread goes on
    }
  }
}

function done(message) {
  parentPort.postMessage({ type: 'done', ...message })
}
