// A program's thread (one per program, started ahead of need): QuickJS (WebAssembly) runs the model-written program here, so a program
// that never yields can be stopped by terminating this thread. Nothing of the host enters the
// QuickJS heap: the SDK crosses as JSON text, and the program's realm has only ECMAScript
// built-ins, `tools` and a silent `console`. Plain JavaScript so it loads without a transform.
import { parentPort, workerData } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import base from '@jitl/quickjs-wasmfile-release-sync'

const engine = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmModule: workerData.wasmModule }))
parentPort.postMessage({ type: 'ready' })
const { code, stopFlag, limits } = await new Promise((resolve) => parentPort.once('message', resolve))
const stop = new Int32Array(stopFlag)

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

const program = `(() => {${PRELUDE}
return (async () => {
  const value = await (async (tools, console) => {\n${code}\n})(tools, console)
  return stringify(value === undefined ? null : value)
})()
})()`

const GUEST_TEXT = '(e) => { try { return String(e && e.message || e).slice(0, 2000) } catch { return undefined } }'

const done = (message) => parentPort.postMessage({ type: 'done', ...message })

const runtime = engine.newRuntime()
runtime.setMemoryLimit(limits.memoryBytes)
runtime.setMaxStackSize(limits.stackBytes)
runtime.setInterruptHandler(() => Atomics.load(stop, 0) !== 0)
const vm = runtime.newContext()

const waiting = new Map()
let nextId = 0
let wake = () => undefined
parentPort.on('message', (message) => {
  const deferred = waiting.get(message.id)
  if (!deferred) return
  waiting.delete(message.id)
  const text = vm.newString(message.reply)
  deferred.resolve(text)
  text.dispose()
  wake()
})

const bridge = vm.newFunction('__dispatch', (nameHandle, argsHandle) => {
  const id = ++nextId
  const deferred = vm.newPromise()
  waiting.set(id, deferred)
  parentPort.postMessage({ type: 'call', id, name: vm.getString(nameHandle), args: vm.getString(argsHandle) })
  return deferred.handle
})
vm.setProp(vm.global, '__dispatch', bridge)
bridge.dispose()

function guestText(handle) {
  const fn = vm.evalCode(GUEST_TEXT)
  if (fn.error) return fn.error.dispose()
  const called = vm.callFunction(fn.value, vm.undefined, handle)
  fn.value.dispose()
  if (called.error) return called.error.dispose()
  const text = vm.typeof(called.value) === 'string' ? vm.getString(called.value) : undefined
  called.value.dispose()
  return text
}

const fail = (handle) => {
  const message = Atomics.load(stop, 0) !== 0 ? undefined : guestText(handle)
  handle.dispose()
  done({ ok: false, message: message ?? 'run_code program failed' })
}

const evaluated = vm.evalCode(program, 'program.js')
if (evaluated.error) fail(evaluated.error)
else await pump(evaluated.value)

async function pump(promise) {
  for (;;) {
    const jobs = runtime.executePendingJobs()
    if (jobs.error) return fail(jobs.error)
    const state = vm.getPromiseState(promise)
    if (state.type === 'fulfilled') {
      const text = vm.typeof(state.value) === 'string' ? vm.getString(state.value) : undefined
      state.value.dispose()
      return done(text === undefined ? { ok: false, message: 'run_code program returned no JSON' } : { ok: true, value: text })
    }
    if (state.type === 'rejected') return fail(state.error)
    if (waiting.size === 0 && !runtime.hasPendingJob()) {
      return done({ ok: false, message: 'run_code program awaits something that can never settle' })
    }
    await new Promise((resolve) => (wake = resolve))
  }
}
