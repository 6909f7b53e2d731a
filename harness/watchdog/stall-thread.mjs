// The watchdog's own thread (plain JavaScript: worker threads load without the TypeScript
// loader). It reads the heartbeat the main thread bumps and the stage it entered last, and keeps
// the stage file current, so that whoever outlives the process knows where it ended. When the
// heartbeat stops for longer than allowed (a synchronous loop in the implementation) it writes
// what was running to the blocked-record file; with `kill` it then kills its own process (the
// in-process mode of `toolreg replay`), otherwise the supervising process does, and a heartbeat
// that comes back withdraws the record.
import { rmSync, writeFileSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'

const { shared, blockedFile, stageFile, blockedAfterMs, tickMs, kill } = workerData
// The layout stall-timer.ts writes: heartbeat, stage length, case number, case length; the stage; the case.
const HEADER_BYTES = 16
const STAGE_BYTES = 512
const header = new Int32Array(shared, 0, HEADER_BYTES / 4)
const stageBytes = new Uint8Array(shared, HEADER_BYTES, STAGE_BYTES)
const caseBytes = new Uint8Array(shared, HEADER_BYTES + STAGE_BYTES)
/** The property running (clause and title), as the main thread last posted it. */
let property
let lastBeat = -1
let beatSeenAt = Date.now()
let reported = false
let lastWhere = ''
const parent = process.ppid

parentPort.on('message', (message) => {
  property = message
})

const stageNow = () => {
  const stageLength = Atomics.load(header, 1)
  return stageLength > 0 ? new TextDecoder().decode(stageBytes.slice(0, stageLength)) : undefined
}

/** The property, and the case it is on: its number, and its JSON when the main thread kept it. */
const runningNow = (withCase) => {
  if (!property) return undefined
  const caseNumber = Atomics.load(header, 2)
  const caseLength = Atomics.load(header, 3)
  const text = withCase && caseLength > 0 ? new TextDecoder().decode(caseBytes.slice(0, caseLength)) : undefined
  return { ...property, ...(caseNumber > 0 ? { caseNumber } : {}), ...(text ? { case: text } : {}) }
}

setInterval(() => {
  // A supervisor that died (SIGKILL) cannot kill a child stuck in a loop: the child does it itself.
  if (!kill && process.ppid !== parent) process.kill(process.pid, 'SIGKILL')
  const stage = stageNow()
  const running = runningNow(false)
  const where = JSON.stringify({ clause: running?.clause, title: running?.title, caseNumber: running?.caseNumber, ...(stage ? { stage } : {}) })
  if (stageFile && where !== lastWhere) {
    lastWhere = where
    try {
      writeFileSync(stageFile, where)
    } catch {
      // the supervisor then names the clause without the stage
    }
  }
  const beat = Atomics.load(header, 0)
  const now = Date.now()
  if (beat !== lastBeat) {
    lastBeat = beat
    beatSeenAt = now
    if (reported) rmSync(blockedFile, { force: true })
    reported = false
    return
  }
  if (reported || now - beatSeenAt < blockedAfterMs) return
  writeFileSync(blockedFile, JSON.stringify({ ...runningNow(true), blockedMs: now - beatSeenAt, ...(stage ? { stage } : {}) }))
  reported = true
  if (!kill) return
  // Straight to file descriptor 2: the blocked thread would never flush process.stderr.
  const inClause = `${running ? ` in ${running.clause}` : ''}${stage ? `, stage ${stage}` : ''}`
  writeSync(2, `toolreg watchdog: event loop blocked for over ${Math.round((now - beatSeenAt) / 1000)} s${inClause}; killing process ${process.pid}\n`)
  process.kill(process.pid, 'SIGKILL')
}, tickMs)
