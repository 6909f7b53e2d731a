/**
 * The program side of the code transport, as JavaScript source for a worker thread. The program
 * is the body of an async function receiving `tools`; `tools.<name>(args)` posts a dispatch
 * request to the registry and resolves with the sub-call's value, or throws its error.
 */
export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads')
const pending = new Map()
let nextId = 0
parentPort.on('message', (message) => {
  const waiter = pending.get(message.id)
  if (!waiter) return
  pending.delete(message.id)
  if (message.ok) waiter.resolve(message.value)
  else waiter.reject(Object.assign(new Error(message.message), { code: message.code }))
})
const tools = new Proxy(Object.create(null), {
  get(_target, name) {
    if (typeof name !== 'string') return undefined
    return (args) => new Promise((resolve, reject) => {
      const id = ++nextId
      pending.set(id, { resolve, reject })
      parentPort.postMessage({ type: 'call', id, name, args })
    })
  },
})
const AsyncFunction = (async () => {}).constructor
Promise.resolve()
  .then(() => new AsyncFunction('tools', workerData.code)(tools))
  .then(
    (value) => parentPort.postMessage({ type: 'done', ok: true, value: value === undefined ? null : value }),
    (error) => parentPort.postMessage({ type: 'done', ok: false, message: String(error && error.message || error) }),
  )
`
