/** The harness's transport: a server process spawned from a command line, driven by an I/O worker. */
import { Worker, MessageChannel } from 'node:worker_threads'
import { ThreadMailbox } from './thread-mailbox.js'
import type { Transport } from './transport.js'

export interface SpawnOptions {
  cwd?: string
  /** Copy the server's standard error to ours as it comes (debugging). */
  echoStderr?: boolean
}

export function spawnServer(command: string, options: SpawnOptions = {}): Transport {
  // The I/O worker parses the command line (execa's parseCommandString): loading execa here would
  // cost every certify process a tenth of a second of start-up.
  if (command.trim() === '') throw new Error('the server command is empty')
  const { port1, port2 } = new MessageChannel()
  const mailbox = new ThreadMailbox(port1)
  const worker = new Worker(new URL('./workers/child-io.mjs', import.meta.url), {
    workerData: { port: port2, counter: mailbox.counter.buffer, command, cwd: options.cwd ?? process.cwd(), echoStderr: options.echoStderr === true },
    transferList: [port2],
  })
  worker.unref()
  port1.unref()
  const transport: Transport = {
    send: (line) => port1.postMessage({ line }),
    receiveSync: (timeoutMs) => mailbox.receiveSync(timeoutMs),
    onIdle: (handler) => mailbox.onIdle(handler),
    kill: (reason = 'by the harness') => port1.postMessage({ kill: reason }),
    close: () => port1.postMessage({ close: true }),
  }
  return transport
}
