/**
 * The memory a child holds in RAM (its resident set, /proc/<pid>/statm), read by the supervisor:
 * the heap cap (--max-old-space-size) bounds only V8's heap, and an implementation that fills
 * Buffers, typed arrays or native memory grows outside it. Where the file cannot be read (another
 * system, a process that is gone), nothing is measured and nothing is killed for it.
 */
import { closeSync, openSync, readSync } from 'node:fs'

const PAGE_BYTES = 4096
const FIELD_BYTES = 128

export function residentMemory(pid: number): { mb: () => number | undefined; close: () => void } {
  let fd: number | undefined
  try {
    fd = openSync(`/proc/${pid}/statm`, 'r')
  } catch {
    fd = undefined
  }
  const buffer = Buffer.alloc(FIELD_BYTES)
  return {
    mb() {
      if (fd === undefined) return undefined
      try {
        const pages = Number(buffer.toString('latin1', 0, readSync(fd, buffer, 0, FIELD_BYTES, 0)).split(' ')[1])
        return Number.isFinite(pages) ? (pages * PAGE_BYTES) / (1024 * 1024) : undefined
      } catch {
        return undefined
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}
