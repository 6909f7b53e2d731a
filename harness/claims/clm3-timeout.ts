/**
 * CLM-3, for a tool declaring timeoutMs: its signal aborts at a generated point (at the latest
 * LATEST_ABORT_MS, or timeoutMs if sooner, after the call starts, as a timeout policy would);
 * the body must settle within the grace period after the abort, and observe() must not change
 * after it settles. Real timers: these are the tool's own timers and I/O, which no scheduler owns.
 * The grace is this process's own time (safe/own-time.mjs): what its threads waited for a CPU
 * while other processes ran does not count against the tool, up to LATEST_LATE_FACTOR times it.
 */
import { isDeepStrictEqual } from 'node:util'
import { setImmediate as nextMacrotask } from 'node:timers/promises'
import fc from 'fast-check'
import { afterOwnTime, processClock } from '../safe/own-time.mjs'
import { abortPoint, describeAbortPoint, type AbortPoint } from './abort-points.js'
import type { ArgumentsGenerator } from './arguments.js'
import { callTool } from './call-tool.js'
import { activeResources, waitForQuiet } from './quiescence.js'
import type { ClaimSettings } from './settings.js'
import { withTrial } from './trial.js'
import type { ClaimHarness, LoadedTool } from './types.js'
import { ClaimViolation } from './violation.js'

export const LATEST_ABORT_MS = 50
/** However starved this process is, a body is late this many grace periods of wall time after the abort. */
const LATEST_LATE_FACTOR = 20

export function timeoutProperty(tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings) {
  return fc.asyncProperty(args.arbitrary, abortPoint, async (input, point) => {
    fc.pre(args.isValid(input))
    const abort = new AbortController()
    const timers: NodeJS.Timeout[] = []
    let cancelLate = () => {}
    let markLate = () => {}
    const late = new Promise<'late'>((resolve) => (markLate = () => resolve('late')))
    let finished = false
    const abortNow = () => {
      if (finished || abort.signal.aborted) return
      abort.abort(new DOMException('The tool timed out.', 'TimeoutError'))
      cancelLate = afterOwnTime(settings.graceMs, markLate, { clock: processClock(), atMostMs: LATEST_LATE_FACTOR * settings.graceMs })
    }
    await withTrial(tool, pausesThatAbort(point, abortNow), async ({ def, observe }) => {
      const baseline = activeResources()
      if (point.at === 'entry') abortNow()
      const call = callTool(def, input, { callId: 'clm3', signal: abort.signal })
      scheduleAbort(point, abortNow, timers)
      timers.push(setTimeout(abortNow, Math.min(def.timeoutMs ?? LATEST_ABORT_MS, LATEST_ABORT_MS)))
      let settled = false
      const first = await Promise.race([
        call.then(() => {
          settled = true
          return 'settled' as const
        }),
        late,
      ])
      finished = true
      timers.forEach(clearTimeout)
      cancelLate()
      // Timers run before I/O callbacks in a loop turn: after a stall of the whole process, let the
      // turn's I/O (a rejected read, say) land before calling the body late.
      if (first === 'late') await nextMacrotask()
      const when = describeAbortPoint(point)
      if (!settled) throw new ClaimViolation([
        { check: 'settle', detail: `the body had not settled ${settings.graceMs} ms (this process's own time) after its signal aborted (${when})` },
      ])
      const atSettle = await observe()
      await waitForQuiet(baseline, settings.graceMs * 2)
      const later = await observe()
      if (!isDeepStrictEqual(atSettle, later)) throw new ClaimViolation([
        {
          check: 'after-settle',
          detail: `observe() changed after the body settled (${when}): ${JSON.stringify(atSettle)} became ${JSON.stringify(later)}`,
        },
      ])
    })
  })
}

/** The environment's pause(): one macrotask, and the abort when it is the generated pause. */
function pausesThatAbort(point: AbortPoint, abortNow: () => void): ClaimHarness {
  let pauses = 0
  return {
    pause: async () => {
      if (point.at === 'pause' && ++pauses === point.index) abortNow()
      await nextMacrotask()
    },
  }
}

function scheduleAbort(point: AbortPoint, abortNow: () => void, timers: NodeJS.Timeout[]): void {
  if (point.at === 'ms') timers.push(setTimeout(abortNow, point.ms))
  if (point.at === 'microtasks') {
    void (async () => {
      for (let i = 0; i < point.count; i++) await Promise.resolve()
      abortNow()
    })()
  }
}
