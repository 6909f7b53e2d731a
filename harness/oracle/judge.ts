/**
 * The judge: compares one scenario's trace with the routing model's predictions and lists every
 * deviation, each naming the clause it breaks. Suites filter the list to the clauses they own, so
 * one bug fails the clauses it breaks and no others. This file only composes the checks of
 * checks/, one module per concern, and the one-fault-one-verdict filters over what they find.
 */
import type { Trace } from '../scenario/trace.js'
import type { Scenario } from '../scenario/types.js'
import { predictBranch } from './checks/branches.js'
import { callView } from './checks/call.js'
import { reporter, type Finding } from './checks/call-view.js'
import { absentPathBroken, in2Consistency, judgeNested } from './checks/code-mode.js'
import { hangFindings } from './checks/hang.js'
import { attacksTookNoEffect, finalizerOwnership, noResurrection, renderSnapshot } from './checks/hostile.js'
import { nestedTokensOfTheirOwn, projectionsSawSnapshots, tokenOfItsOwn } from './checks/immutability.js'
import { judgeEitherShape } from './checks/lax-shape.js'
import { projectionsCalledOnOutput } from './checks/projection-receiver.js'
import { replacedValueRerendered } from './checks/rerendered.js'
import { rootOnly, voidAfterTamper } from './checks/one-verdict.js'
import type { Violation } from './violation.js'

export type { Violation } from './violation.js'
export type { Finding } from './checks/call-view.js'
export { shapeProblem } from './checks/outcome-shape.js'
export { deepEqualJson } from './json-equal.js'

export function judge(scenario: Scenario, trace: Trace): Violation[] {
  return judgeFindings(scenario, trace).map(({ check: _check, ...violation }) => violation)
}

/** The violations with the check that filed each (`<clause>:<module>/<site>`). */
export function judgeFindings(scenario: Scenario, trace: Trace): Finding[] {
  if (trace.hung || trace.adapterError) return voidAfterTamper(hangFindings(scenario, trace), trace)
  const out: Finding[] = []
  const owners = new Map<number, string>()
  scenario.calls.forEach((spec, index) => {
    if (spec.program) return
    const callId = `c${index}`
    const record = trace.calls[index]
    if (!record) return
    const e = predictBranch(scenario, trace, index, callId)
    out.push(...rootOnly(e, judgeEitherShape(scenario, trace, index, record, callId)))
    judgeNested(scenario, trace, e, spec, callId, out)
    const view = callView(scenario, trace, e, record, callId, out)
    attacksTookNoEffect(view)
    finalizerOwnership(view)
    noResurrection(view)
    renderSnapshot(view)
    replacedValueRerendered(view)
    tokenOfItsOwn(view, owners)
  })
  nestedTokensOfTheirOwn(trace, owners, out)
  absentPathBroken(scenario, out)
  projectionsSawSnapshots(scenario, trace, out)
  projectionsCalledOnOutput(scenario, trace, out)
  out.push(...in2Consistency(scenario, trace))
  if (trace.events.some((e) => e.ev === 'present')) {
    reporter('presentation', out)('DEF-3', 'present-during-execution', 'the registry called presentCall/presentResult during execution')
  }
  return voidAfterTamper(out, trace)
}
