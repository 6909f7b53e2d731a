// The server's I/O worker: reads the protocol from standard input (fd 0) and hands each line to
// the main thread, which may be blocked waiting for an answer. Blocking reads are fine here:
// this thread does nothing else. The main thread writes its own lines to standard output.
import { readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { workerData } from 'node:worker_threads'
import { deliverer, lineSplitter } from './deliver.mjs'

const deliver = deliverer(workerData.port, workerData.counter)
const split = lineSplitter((line) => deliver({ line }))
const decoder = new StringDecoder('utf8')
const buffer = Buffer.alloc(1 << 16)
const nap = new Int32Array(new SharedArrayBuffer(4))

for (;;) {
  let read
  try {
    read = readSync(0, buffer, 0, buffer.length, null)
  } catch (error) {
    if (error.code === 'EAGAIN') {
      Atomics.wait(nap, 0, 0, 1) // a non-blocking stdin: poll
      continue
    }
    if (error.code === 'EOF') read = 0
    else {
      deliver({ closed: `standard input failed: ${error.message}` })
      break
    }
  }
  if (read === 0) {
    deliver({ closed: 'standard input closed' })
    break
  }
  split(decoder.write(buffer.subarray(0, read)))
}
