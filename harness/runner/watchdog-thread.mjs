// The watchdog's own thread (plain JavaScript: worker threads load without the TypeScript
// loader). It reads the heartbeat the suites' thread bumps; when the heartbeat stops for longer
// than allowed, the event loop is blocked (a synchronous loop in the implementation): it writes
// what was running to the blocked-record file and kills its process, which the host notices.
import { writeFileSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'

const { shared, blockedFile, blockedAfterMs, tickMs } = workerData
const header = new Int32Array(shared, 0, 2)
const stageBytes = new Uint8Array(shared, 8)
let running
let lastBeat = -1
let beatSeenAt = Date.now()

parentPort.on('message', (message) => {
  running = message
})

setInterval(() => {
  const beat = Atomics.load(header, 0)
  const now = Date.now()
  if (beat !== lastBeat) {
    lastBeat = beat
    beatSeenAt = now
    return
  }
  if (now - beatSeenAt < blockedAfterMs) return
  const stageLength = Atomics.load(header, 1)
  const stage = stageLength > 0 ? new TextDecoder().decode(stageBytes.slice(0, stageLength)) : undefined
  writeFileSync(blockedFile, JSON.stringify({ ...running, blockedMs: now - beatSeenAt, ...(stage ? { stage } : {}) }))
  // Straight to file descriptor 2: the blocked thread would never flush process.stderr.
  writeSync(2, `toolreg watchdog: event loop blocked for over ${Math.round((now - beatSeenAt) / 1000)} s${running ? ` in ${running.clause}` : ''}${stage ? `, stage ${stage}` : ''}; killing process ${process.pid}\n`)
  process.kill(process.pid, 'SIGKILL')
}, tickMs)
