// How an I/O worker hands a message to its main thread: post it, then wake a blocked waiter.
export function deliverer(port, counterBuffer) {
  const counter = new Int32Array(counterBuffer)
  return (message) => {
    port.postMessage(message)
    Atomics.add(counter, 0, 1)
    Atomics.notify(counter, 0)
  }
}

// Splits a stream of text into lines, calling `onLine` for each non-empty one.
export function lineSplitter(onLine) {
  let pending = ''
  return (text) => {
    pending += text
    let end
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end).replace(/\r$/, '')
      pending = pending.slice(end + 1)
      if (line.trim() !== '') onLine(line)
    }
  }
}
