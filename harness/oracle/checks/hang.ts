/**
 * Hangs: a case that ran past its time budget fails the clause of the stage it hung in — PRE-6
 * (a pre-execute listener awaited), APR-2 (an approval request), EXE-2 (the body, under a wrapper
 * that handed next() an override) or CAN-3 (the body), IN-5 (an ill-typed input, S) or IN-4
 * (before any stage). A hook's write that took effect before the hang (IN-1: a listener renamed
 * the call) voids it, as it voids every later check of the case.
 */
import type { Trace } from '../../scenario/trace.js'
import type { Scenario } from '../../scenario/types.js'
import { reporter, type Finding } from './call-view.js'
import { attacksTookNoEffect } from './hostile.js'
import { tamperTookEffect } from './immutability.js'

export function hangFindings(scenario: Scenario, trace: Trace): Finding[] {
  const out: Finding[] = []
  if (!trace.hung) return out
  // A write that took effect before the hang is the case's first broken rule: the hang is void (voidAfterTamper).
  writesTookEffect(trace, out)
  const lastStage = trace.hung.lastStage
  reporter('hang', out)(hangClause(scenario, lastStage, trace), 'ran-past-budget', `the case ran past its time budget; last stage entered: ${lastStage}`)
  return out
}

/** The writes on an execution or a result that took effect, read from the trace alone (IN-1, PST-1, FIN-3, RES-2). */
function writesTookEffect(trace: Trace, out: Finding[]): void {
  const written = new Set(trace.events.flatMap((x) => (x.ev === 'tamper' || x.ev === 'attack' ? [x.call] : [])))
  for (const callId of written) {
    const view = { trace, callId, report: (module: string) => reporter(module, out, callId) }
    tamperTookEffect(view)
    attacksTookNoEffect(view)
  }
}

/** Wrappers that hand next() an override: a body that never saw the caller's abort through one is EXE-2's. */
const SIGNAL_OVERRIDES = new Set(['replace-signal', 'empty-override'])

function hangClause(scenario: Scenario, lastStage: string, trace: Trace): string {
  // An approval request is not a stage: when it is the last thing that happened, the call hung waiting on it.
  const last = [...trace.events].reverse().find((e) => e.ev === 'enter' || e.ev === 'approval-request')
  if (last?.ev === 'approval-request') return 'APR-2'
  if (lastStage.startsWith('pre')) return 'PRE-6'
  if (lastStage.startsWith('body')) return scenario.wrappers.some((w) => SIGNAL_OVERRIDES.has(w.action.kind)) ? 'EXE-2' : 'CAN-3'
  if (lastStage.startsWith('approval') || scenario.config.approval?.kind === 'never') return 'APR-2'
  // Before any stage, on an ill-typed input: IN-5's (S), not IN-4's. Calls run one after another
  // wait behind the first unsettled one; concurrent calls each hang on their own.
  const unsettled = scenario.calls.filter((_, i) => !trace.calls[i]?.result && trace.calls[i]?.rejected === undefined)
  const hanging = scenario.concurrent ? unsettled : unsettled.slice(0, 1)
  if (hanging.length > 0 && hanging.every((c) => c.malformed)) return 'IN-5'
  return 'IN-4'
}
