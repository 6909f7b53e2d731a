// A process's own time: the wall time its main thread did not spend runnable but waiting for a
// CPU. A thread that spins accrues it (it runs), so does one that sleeps synchronously (execSync,
// Atomics.wait: it is blocked), but a thread starved by other processes does not: on a machine
// with twenty runnable processes per core, "silent for 5 s" is the implementation's fault only
// when 5 s of it were the process's own. Plain JavaScript: the watchdog thread, which loads
// without the TypeScript loader, reads it too.
//
// Linux gives the waiting in /proc/<pid>/task/<tid>/schedstat ("cpu_ns runqueue_wait_ns
// timeslices"; a process's main thread has its pid for tid; /proc/thread-self is the calling
// thread). The kernel adds a wait to it only once the wait ended, at times a little later: own
// time may read ahead by about one wait for a CPU (tens of milliseconds under fair scheduling, 60
// ms seen with four runnable processes per CPU), and falls back when the wait is counted; the
// watchdog thread does not judge a thread it sees waiting now. Where that file cannot be read
// (another system, a kernel without scheduler statistics, a process that is gone) the clock
// counts wall time from then on: the same judgement as before this module, never a jump.
import { closeSync, openSync, readSync } from 'node:fs'

const FIELD_BYTES = 96

/**
 * The own-time clock of the main thread of process `pid` (without one: of the calling thread), in
 * milliseconds from an arbitrary origin: only differences between readings of one clock mean
 * anything. `measured`: whether the waiting is read at all (false: a wall clock).
 */
export function ownClock(pid) {
  let fd = openQuietly(pid === undefined ? '/proc/thread-self/schedstat' : `/proc/${pid}/task/${pid}/schedstat`)
  const buffer = Buffer.alloc(FIELD_BYTES)
  let waitedMs = 0
  let cpuMs
  let measured = fd !== undefined

  const readWaited = () => {
    if (fd === undefined) return
    try {
      const length = readSync(fd, buffer, 0, FIELD_BYTES, 0)
      const [ranNs, waitNs] = buffer.toString('latin1', 0, length).split(' ').map(Number)
      measured = Number.isFinite(ranNs) && Number.isFinite(waitNs)
      if (measured) [cpuMs, waitedMs] = [ranNs / 1e6, waitNs / 1e6]
    } catch {
      measured = false // the process ended: wall time from here on
    }
    if (!measured) cpuMs = undefined
  }
  readWaited()
  return {
    get measured() {
      return measured
    },
    /** The CPU time the thread ran, as of the last reading; undefined when not measured. */
    get cpuMs() {
      return cpuMs
    },
    now() {
      readWaited()
      return performance.now() - waitedMs
    },
    close() {
      if (fd !== undefined) closeQuietly(fd)
      fd = undefined
      ;[measured, cpuMs] = [false, undefined]
    },
  }
}

let threadClock

/**
 * Calls `fire` once `ms` of the calling thread's own time have passed: a timer that, when it
 * fires, re-arms for the own time still missing. Returns what cancels it.
 */
export function afterOwnTime(ms, fire) {
  threadClock ??= ownClock()
  const clock = threadClock
  const until = clock.now() + ms
  let timer
  const arm = (wait) => {
    timer = setTimeout(() => {
      const missing = until - clock.now()
      if (missing > 0) arm(missing)
      else fire()
    }, wait)
  }
  arm(ms)
  return () => clearTimeout(timer)
}

function openQuietly(path) {
  try {
    return openSync(path, 'r')
  } catch {
    return undefined
  }
}

function closeQuietly(fd) {
  try {
    closeSync(fd)
  } catch {
    // already closed
  }
}
