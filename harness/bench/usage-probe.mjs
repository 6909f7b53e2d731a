// Loaded into every Node process of a measured run (NODE_OPTIONS=--import): on exit, each writes
// its own CPU time and peak RSS, so the bench can add up a run's processes (vitest's workers too).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.env.TOOLREG_USAGE_DIR
const record = () => {
  const usage = process.resourceUsage()
  const line = { pid: process.pid, userUs: usage.userCPUTime, systemUs: usage.systemCPUTime, maxRssKb: usage.maxRSS }
  try {
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(line))
  } catch {
    // a probe never changes how the measured process ends
  }
}

if (dir) {
  process.on('exit', record)
  // A pool ends its worker processes with SIGTERM: record, then end as that signal would.
  process.once('SIGTERM', () => {
    record()
    process.kill(process.pid, 'SIGTERM')
  })
}
