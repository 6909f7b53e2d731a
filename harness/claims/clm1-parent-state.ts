/**
 * CLM-1: the body never writes parent-owned state. It receives its arguments and its run context
 * deep-frozen behind write-recording Proxies, so an attempt is seen even when it fails silently
 * (sloppy code) or its TypeError is caught; each attempt is reported with its property path.
 */
import fc from 'fast-check'
import type { ArgumentsGenerator } from './arguments.js'
import { callTool } from './call-tool.js'
import type { WriteLog } from './recording-proxy.js'
import type { ClaimSettings } from './settings.js'
import { settleWithin, type Stalls } from './settle-within.js'
import { IMMEDIATE_HARNESS, withTrial } from './trial.js'
import type { LoadedTool } from './types.js'
import { assertNoViolation } from './violation.js'

export function parentStateProperty(tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings, stalls: Stalls) {
  return fc.asyncProperty(args.arbitrary, async (input) => {
    fc.pre(args.isValid(input))
    await withTrial(tool, IMMEDIATE_HARNESS, async ({ def }) => {
      const writes: WriteLog = []
      const run = await settleWithin(callTool(def, input, { callId: 'clm1', signal: new AbortController().signal, writes }), settings.trialTimeoutMs)
      if (!run.settled && writes.length === 0) stalls.skip(`a call did not settle within ${settings.trialTimeoutMs} ms`)
      assertNoViolation(writes.map((w) => ({ check: 'parent-owned state', detail: `the body attempted ${w.operation} on ${w.path}`, path: w.path })))
    })
  })
}
