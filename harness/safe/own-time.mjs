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
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs'

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
      const read = schedstat(buffer.toString('latin1', 0, length))
      measured = read !== undefined
      if (read) [cpuMs, waitedMs] = [read.ranMs, read.waitedMs]
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

/**
 * The own-time clock of this whole process: wall time less what each of its threads waited for a
 * CPU since the clock was made. A chain of work that hops threads (a file read on the libuv pool,
 * then its callback on the main thread) is delayed by every hop's wait; concurrent waits count
 * more than once, so the clock is generous under load and exact on an idle machine.
 */
export function processClock() {
  const waited = new Map()
  let total = 0
  let measured = true
  const readAll = () => {
    let tids
    try {
      tids = readdirSync('/proc/self/task')
    } catch {
      measured = false
      return
    }
    for (const tid of tids) {
      const wait = threadWaitMs(tid)
      if (wait === undefined) continue
      total += wait - (waited.get(tid) ?? 0)
      waited.set(tid, wait)
    }
  }
  readAll()
  total = 0
  return {
    get measured() {
      return measured
    },
    cpuMs: undefined,
    now() {
      if (measured) readAll()
      return performance.now() - total
    },
    close() {
      measured = false
    },
  }
}

function threadWaitMs(tid) {
  try {
    return schedstat(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1'))?.waitedMs
  } catch {
    return undefined // the thread ended
  }
}

/** A schedstat line ("cpu_ns runqueue_wait_ns timeslices") in milliseconds; undefined when it is not one. */
function schedstat(text) {
  const [ranNs, waitNs] = text.split(' ').map(Number)
  return Number.isFinite(ranNs) && Number.isFinite(waitNs) ? { ranMs: ranNs / 1e6, waitedMs: waitNs / 1e6 } : undefined
}

let threadClock

/**
 * Calls `fire` once `ms` of own time have passed (the calling thread's, or `options.clock`'s): a
 * timer that, when it fires, re-arms for the own time still missing, at most until
 * `options.atMostMs` of wall time. Returns what cancels it.
 */
export function afterOwnTime(ms, fire, options = {}) {
  const clock = options.clock ?? (threadClock ??= ownClock())
  const until = clock.now() + ms
  const latest = performance.now() + (options.atMostMs ?? Infinity)
  let timer
  const arm = (wait) => {
    timer = setTimeout(() => {
      const missing = Math.min(until - clock.now(), latest - performance.now())
      if (missing > 0) arm(missing)
      else fire()
    }, wait)
  }
  arm(Math.min(ms, options.atMostMs ?? Infinity))
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
