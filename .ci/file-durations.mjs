// A vitest reporter that writes each test file's duration, hooks included (vitest's JSON reporter
// spans only the tests, so a file whose work is in beforeAll looks free there), to the file named
// by TOOLREG_DURATIONS: [{ file, ms }], slowest first.
import { writeFileSync } from 'node:fs'

export default class FileDurations {
  onTestRunEnd(modules) {
    const rows = modules.map((m) => {
      const d = m.diagnostic()
      return { file: m.relativeModuleId, ms: Math.round(d.collectDuration + d.setupDuration + d.duration) }
    })
    writeFileSync(process.env.TOOLREG_DURATIONS, JSON.stringify(rows.sort((a, b) => b.ms - a.ms)))
  }
}
