/**
 * The watchdog around work on the implementation in this process (`toolreg replay`): a
 * synchronous loop in the implementation ends the process with a line naming what was running,
 * instead of hanging it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listenToStages } from '../scenario/stage-probe.js'
import { DEFAULT_CASE_TIMEOUT_MS } from './record.js'
import { Watchdog } from './stall-timer.js'

export async function underWatchdog<T>(clause: string, title: string, work: () => Promise<T>, blockedAfterMs = DEFAULT_CASE_TIMEOUT_MS): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-watchdog-'))
  const watchdog = new Watchdog({ dir, blockedAfterMs, kill: true })
  listenToStages((stage) => watchdog.stage(stage))
  watchdog.caseStarted({ clause, title })
  try {
    return await work()
  } finally {
    listenToStages(undefined)
    await watchdog.stop()
    await rm(dir, { recursive: true, force: true })
  }
}
