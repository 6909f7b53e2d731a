// The server's I/O worker: reads the protocol from standard input (fd 0) and hands each line to
// the main thread, which may be blocked waiting for an answer. The main thread writes its own
// lines to standard output. Reads are asynchronous so that the worker never holds up the
// process's exit (a process.exit() waits for its workers to stop).
import { fstatSync, createReadStream } from 'node:fs'
import { Socket } from 'node:net'
import { workerData } from 'node:worker_threads'
import { deliverer, lineSplitter } from './deliver.mjs'

const deliver = deliverer(workerData.port, workerData.counter)
const split = lineSplitter((line) => deliver({ line }))
const input = fstatSync(0).isFile() ? createReadStream(null, { fd: 0, autoClose: false }) : new Socket({ fd: 0, readable: true, writable: false })
input.setEncoding('utf8')
input.on('data', split)
input.on('end', () => deliver({ closed: 'standard input closed' }))
input.on('error', (error) => deliver({ closed: `standard input failed: ${error.message}` }))
