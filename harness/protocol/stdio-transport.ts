/** The server's transport: standard input read by an I/O worker, standard output written directly. */
import { writeSync } from 'node:fs'
import { MessageChannel, Worker } from 'node:worker_threads'
import { ThreadMailbox } from './thread-mailbox.js'
import type { Transport } from './transport.js'

export function stdioTransport(): Transport {
  const { port1, port2 } = new MessageChannel()
  const mailbox = new ThreadMailbox(port1)
  const worker = new Worker(new URL('./workers/stdin-reader.mjs', import.meta.url), {
    workerData: { port: port2, counter: mailbox.counter.buffer },
    transferList: [port2],
  })
  worker.unref()
  return {
    send: (line) => writeAll(`${line}\n`),
    receiveSync: (timeoutMs) => mailbox.receiveSync(timeoutMs),
    onIdle: (handler) => mailbox.onIdle(handler),
    kill: () => process.exit(1),
    close: () => process.exit(0),
  }
}

const nap = new Int32Array(new SharedArrayBuffer(4))

/** Writes all of `text` to standard output, waiting out a full pipe. */
function writeAll(text: string): void {
  let bytes = Buffer.from(text, 'utf8')
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(1, bytes))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
      Atomics.wait(nap, 0, 0, 1)
    }
  }
}
