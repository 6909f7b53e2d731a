// The watchdog's own thread (plain JavaScript: worker threads load without the TypeScript
// loader). It reads the heartbeat the main thread bumps and the stage it entered last, and keeps
// the stage file current, so that whoever outlives the process knows where it ended. All its
// time is the main thread's own time (safe/own-time.mjs): a process starved of CPU by others is
// not silent, only one whose main thread spins or sleeps synchronously is. When the heartbeat
// stops for longer than `blockedAfterMs` it writes what was running to the blocked-record file
// (a heartbeat that comes back withdraws it); past the silence or a deadline the main thread set
// for the request it runs, it writes its judgement and kills its own process (it judges where it
// sees the heartbeat, with no message queue in between). With `kill` (the in-process mode of
// `toolreg replay`) the blocked record is itself the end of the process.
import { readFileSync, rmSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { ownClock } from '../safe/own-time.mjs'
import { endOrphan, supervisorPid } from '../safe/process-tree.mjs'
import { writeUntrusted } from '../safe/untrusted-file.mjs'

const { shared, blockedFile, stageFile, killedFile, blockedAfterMs, tickMs, kill } = workerData
// The layout stall-timer.ts writes: heartbeat, stage length, case number, case length, cases
// started, silence allowed, case deadline, request deadline, request number; the stage; the case.
const HEADER_BYTES = 48
const STAGE_BYTES = 512
const header = new Int32Array(shared, 0, HEADER_BYTES / 4)
const stageBytes = new Uint8Array(shared, HEADER_BYTES, STAGE_BYTES)
const caseBytes = new Uint8Array(shared, HEADER_BYTES + STAGE_BYTES)
const slot = { beat: 0, stage: 1, caseNumber: 2, caseLength: 3, cases: 4, silence: 5, caseDeadline: 6, requestDeadline: 7, request: 8 }
const clock = ownClock(process.pid)
/** The property running (clause and title), as the main thread last posted it. */
let property
let reported = false
let lastWhere = ''
/** The supervisor (from the environment: it may be gone before this thread starts). */
const parent = supervisorPid()
/** The own time at which each counter was last seen to change. */
const seen = { beat: { value: -1, at: clock.now() }, cases: { value: -1, at: 0 }, request: { value: -1, at: 0 } }
let cpuAtLastTick = clock.cpuMs

parentPort.on('message', (message) => {
  property = message
})

const stageNow = () => {
  const stageLength = Atomics.load(header, slot.stage)
  return stageLength > 0 ? new TextDecoder().decode(stageBytes.slice(0, stageLength)) : undefined
}

/** The property, and the case it is on: its number, and its JSON when the main thread kept it. */
const runningNow = (withCase) => {
  if (!property) return undefined
  const caseNumber = Atomics.load(header, slot.caseNumber)
  const caseLength = Atomics.load(header, slot.caseLength)
  const text = withCase && caseLength > 0 ? new TextDecoder().decode(caseBytes.slice(0, caseLength)) : undefined
  return { ...property, ...(caseNumber > 0 ? { caseNumber } : {}), ...(text ? { case: text } : {}) }
}

/** How long since `counter` last changed, in own time; the change is noted now when it just did. */
function since(counter, now) {
  const value = Atomics.load(header, slot[counter])
  if (value !== seen[counter].value) seen[counter] = { value, at: now }
  return now - seen[counter].at
}

/**
 * The main thread is runnable but got no CPU since the last tick: the kernel adds a wait to its
 * statistics only once the wait ends, so its own time is overstated by this wait until it runs.
 */
function waitingForCpu(cpuMs) {
  if (cpuMs === undefined || cpuMs !== cpuAtLastTick) return false
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('R')
  } catch {
    return false
  }
}

/** Never blocks: the implementation may have put a FIFO in its place (the supervisor then judges without it). */
const writeQuietly = (file, text) => writeUntrusted(file, text)

setInterval(() => {
  // A supervisor that died (SIGKILL) cannot kill a child stuck in a loop: the child does it itself, and what it started.
  if (!kill && process.ppid !== parent) endOrphan(parent)
  const stage = stageNow()
  const running = runningNow(false)
  const where = JSON.stringify({ clause: running?.clause, title: running?.title, caseNumber: running?.caseNumber, ...(stage ? { stage } : {}) })
  if (stageFile && where !== lastWhere) {
    lastWhere = where
    writeQuietly(stageFile, where)
  }
  const now = clock.now()
  const silentMs = since('beat', now)
  const caseMs = Math.min(since('cases', now), since('request', now))
  const requestMs = since('request', now)
  const waiting = waitingForCpu(clock.cpuMs)
  cpuAtLastTick = clock.cpuMs
  if (silentMs === 0) {
    if (reported) rmSync(blockedFile, { force: true })
    reported = false
  } else if (!reported && silentMs >= blockedAfterMs && !waiting) {
    writeQuietly(blockedFile, JSON.stringify({ ...runningNow(true), blockedMs: Math.round(silentMs), ...(stage ? { stage } : {}) }))
    reported = true
    if (kill) killForReplay(silentMs, running, stage)
  }
  if (kill || waiting) return
  const over = (limit, ms) => limit > 0 && ms > limit
  const blocked = over(Atomics.load(header, slot.silence), silentMs)
  const late = over(Atomics.load(header, slot.caseDeadline), caseMs) || over(Atomics.load(header, slot.requestDeadline), requestMs)
  if (!blocked && !late) return
  if (blocked) writeQuietly(blockedFile, JSON.stringify({ ...runningNow(true), blockedMs: Math.round(silentMs), ...(stage ? { stage } : {}) }))
  writeQuietly(killedFile, JSON.stringify({ killed: blocked ? 'blocked' : 'deadline', silentMs: Math.round(silentMs), caseMs: Math.round(caseMs) }))
  process.kill(process.pid, 'SIGKILL')
}, tickMs)

function killForReplay(silentMs, running, stage) {
  // Straight to file descriptor 2: the blocked thread would never flush process.stderr.
  const inClause = `${running ? ` in ${running.clause}` : ''}${stage ? `, stage ${stage}` : ''}`
  writeSync(2, `toolreg watchdog: event loop blocked for over ${Math.round(silentMs / 1000)} s${inClause}; killing process ${process.pid}\n`)
  process.kill(process.pid, 'SIGKILL')
}
