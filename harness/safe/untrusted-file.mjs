// Files in a folder the implementation's process can reach (the watchdog's records, written by
// the child, read by the supervisor after it ended), opened so that nothing the implementation
// puts there can block or flood the reader: never following a symbolic link, never waiting on a
// FIFO or a device (O_NONBLOCK: opening a FIFO with no writer returns at once, and fstat then
// says it is no regular file), and read only up to a size cap. Plain JavaScript: the watchdog
// thread, which loads without the TypeScript loader, writes through it too.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs'

const { O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC, O_NONBLOCK, O_NOFOLLOW } = constants

/** The file's text when it is a regular file of at most `maxBytes`; undefined otherwise (absent, a FIFO, a link, too big). */
export function readUntrusted(file, maxBytes) {
  let fd
  try {
    fd = openSync(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.size > maxBytes) return undefined
    const buffer = Buffer.alloc(stat.size)
    let read = 0
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read)
      if (n === 0) break
      read += n
    }
    return buffer.toString('utf8', 0, read)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Writes `text` unless the file is something else than a regular file (a FIFO, a link); true when written. */
export function writeUntrusted(file, text) {
  let fd
  try {
    fd = openSync(file, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOFOLLOW)
    if (!fstatSync(fd).isFile()) return false
    writeSync(fd, text)
    return true
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
