// The harness's I/O worker: spawns the implementation's server with execa, writes the lines the
// main thread posts to its standard input, and hands each line of its standard output to the
// main thread (which may be blocked waiting for an answer). Its exit, with the tail of its
// standard error, closes the connection.
import { execa, parseCommandString } from 'execa'
import { workerData } from 'node:worker_threads'
import { deliverer, lineSplitter } from './deliver.mjs'

const { port, counter, command, cwd, echoStderr, serverPid } = workerData
const [file, ...args] = parseCommandString(command)
const deliver = deliverer(port, counter)
const TAIL = 2000
let stderrTail = ''

const server = execa(file, args, { cwd, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', buffer: false, reject: false, cleanup: true, stripFinalNewline: false })
// The main thread kills the server when its process exits before the server did (child-transport.ts).
const pid = new Int32Array(serverPid)
Atomics.store(pid, 0, server.pid ?? 0)
server.stdout.setEncoding('utf8')
server.stdout.on('data', lineSplitter((line) => deliver({ line })))
server.stderr.setEncoding('utf8')
server.stderr.on('data', (text) => {
  stderrTail = (stderrTail + text).slice(-TAIL)
  if (echoStderr) process.stderr.write(text)
})
server.stdin.on('error', () => undefined) // a dead server: its exit is reported below

let killedBecause
port.on('message', (message) => {
  if (message.line !== undefined) server.stdin.write(`${message.line}\n`)
  if (message.kill) {
    killedBecause ??= message.kill
    server.kill('SIGKILL')
  }
  if (message.close) {
    server.stdin.end()
    setTimeout(() => server.kill('SIGKILL'), 1000).unref()
  }
})

const result = await server
Atomics.store(pid, 0, 0)
const how = killedBecause
  ? `was killed (${killedBecause})`
  : result.exitCode !== undefined
    ? `exited with code ${result.exitCode}`
    : result.signal
      ? `was ended by ${result.signal}`
      : `failed to start (${result.originalMessage ?? result.shortMessage})`
const tail = stderrTail.trim()
// An exit or a signal of its own is the implementation's; a kill of ours or a failed start is not.
const ended = !killedBecause && (result.exitCode !== undefined || result.signal)
  ? { ended: { exitCode: result.exitCode ?? null, signal: result.signal ?? null } }
  : {}
deliver({ closed: `the server ${how}${tail ? `; its stderr ends: ${tail.slice(-600)}` : ''}`, ...ended })
port.close()
