/** The harness's transport: a server process spawned from a command line, driven by an I/O worker. */
import { Worker, MessageChannel } from 'node:worker_threads'
import { ThreadMailbox } from './thread-mailbox.js'
import type { Transport } from './transport.js'

export interface SpawnOptions {
  cwd?: string
  /** Copy the server's standard error to ours as it comes (debugging). */
  echoStderr?: boolean
}

/** The pid of each server started in this process, 0 once it ended (written by its I/O worker). */
const serverPids = new Set<Int32Array>()

/**
 * A process that exits takes its worker threads with it, but not the servers they started: one
 * that ignores the end of its input (a loop) would run on, an orphan, past the grace `close()`
 * gives it. Whatever is still running is killed as this process exits.
 */
function killServersOnExit(): void {
  for (const pid of serverPids) {
    const running = Atomics.load(pid, 0)
    if (running === 0) continue
    try {
      process.kill(running, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
}
process.on('exit', killServersOnExit)

export function spawnServer(command: string, options: SpawnOptions = {}): Transport {
  // The I/O worker parses the command line (execa's parseCommandString): loading execa here would
  // cost every certify process a tenth of a second of start-up.
  if (command.trim() === '') throw new Error('the server command is empty')
  const { port1, port2 } = new MessageChannel()
  const mailbox = new ThreadMailbox(port1)
  const serverPid = new Int32Array(new SharedArrayBuffer(4))
  serverPids.add(serverPid)
  const worker = new Worker(new URL('./workers/child-io.mjs', import.meta.url), {
    workerData: {
      port: port2,
      counter: mailbox.counter.buffer,
      serverPid: serverPid.buffer,
      command,
      cwd: options.cwd ?? process.cwd(),
      echoStderr: options.echoStderr === true,
    },
    transferList: [port2],
  })
  worker.on('exit', () => serverPids.delete(serverPid))
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
