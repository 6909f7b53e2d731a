/**
 * The main thread's end of an I/O worker: the worker posts each incoming line on a MessagePort
 * and bumps a shared counter, so the main thread can either block on the counter
 * (`Atomics.wait`) and take the line synchronously (`receiveMessageOnPort`), or, when idle,
 * receive it as an ordinary message event.
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads'
import type { Incoming } from './transport.js'

export class ThreadMailbox {
  /** Counts lines posted by the worker; the main thread waits on it. */
  readonly counter = new Int32Array(new SharedArrayBuffer(4))

  constructor(readonly port: MessagePort) {}

  receiveSync(timeoutMs: number): Incoming | undefined {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const seen = Atomics.load(this.counter, 0)
      const received = receiveMessageOnPort(this.port)
      if (received) return received.message as Incoming
      const left = deadline - Date.now()
      if (left <= 0) return undefined
      Atomics.wait(this.counter, 0, seen, Number.isFinite(left) ? left : undefined)
    }
  }

  onIdle(handler: (incoming: Incoming) => void): void {
    this.port.on('message', handler)
  }
}
