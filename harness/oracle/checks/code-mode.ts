/**
 * Code mode: CODE-1's proviso, CODE-2, CODE-5 — a call with no visible tool whose arguments are not
 * lossless JSON may end at IN-2 first only if a call to a missing tool with the same arguments
 * ends the same way; and the nested calls a body dispatches (`dispatch` steps, parent = the
 * body's token) go through the full pipeline, with the caller's agent; CODE-5's fake parent is judged
 * against the parent-less path (CODE-1).
 */
import type { Trace } from '../../scenario/trace.js'
import type { CallSpec, Scenario } from '../../scenario/types.js'
import { predict, type Expected } from '../predict.js'
import { predictBranch } from './branches.js'
import { judgeCall } from './call.js'
import { readSafe, reporter, type Finding } from './call-view.js'

/**
 * Judges the nested calls like any call. Skipped when the caller aborted: the nested call shares
 * its signal, and where that abort lands is not the nested call's to explain; and when the body
 * ran more than once (a wrapper's second next(), PRE-8's case), which dispatched each nested call
 * again under the same name.
 */
export function judgeNested(scenario: Scenario, trace: Trace, e: Expected, spec: CallSpec, callId: string, out: Finding[]): void {
  if (!e.tool || trace.events.some((x) => x.ev === 'abort' && x.call === callId)) return
  const bodies = trace.events.filter((x) => x.ev === 'enter' && x.stage === 'body' && x.call === callId).length
  if (bodies !== 1) return
  e.tool.body.steps.forEach((step, at) => {
    if (step.kind !== 'dispatch') return
    const nestedId = `${callId}/${at}`
    const record = trace.nested?.find((r) => r.callId === nestedId)
    if (!record) return
    const agent = step.agent === undefined ? spec.agent : step.agent === 'none' ? undefined : step.agent
    const call: CallSpec = { tool: step.tool, args: step.args, ...(agent ? { agent } : {}), ...(step.abortedSignal ? { abortAtEntry: true } : {}) }
    const index = Number(callId.slice(1).split('/')[0])
    const expected = predictBranch(scenario, trace, index, nestedId, call)
    const found: Finding[] = []
    judgeCall(scenario, trace, expected, record, nestedId, found, call)
    out.push(...(policyBypassed(trace, expected, nestedId) ? found.map((x) => refiled(x, 'CODE-2')) : found))
  })
}

/**
 * A nested call that met none of the policy it was due (no pre-execute listener, approval or guard
 * entered) skipped the pipeline: CODE-2's rule broke first, whatever the rules of the skipped stages say.
 */
function policyBypassed(trace: Trace, e: Expected, callId: string): boolean {
  const due = e.preEntered > 0 || e.approvalRequested || e.guardsEntered > 0
  const met = trace.events.some((x) =>
    (x.ev === 'approval-request' && x.call === callId) || (x.ev === 'enter' && x.call === callId && ['pre', 'guard'].includes(x.stage)))
  return due && !met
}

/** The finding filed under `clause`, its check named for it. */
const refiled = (x: Finding, clause: string): Finding => ({ ...x, clause, check: x.check.replace(/^[A-Z]+-\d+:/, `${clause}:`) })

/**
 * CODE-5's "treated as absent" means "ends like the same call with no parent". When a parent-less
 * call to a hidden native tool broke CODE-1 in this case, the absent-parent path itself is broken:
 * the fake-parent calls' deviations are CODE-1's.
 */
export function absentPathBroken(scenario: Scenario, out: Finding[]): void {
  const hiddenNative = (spec: CallSpec) =>
    scenario.config.mode === 'code' && !spec.program && !spec.malformed && scenario.tools.some((t) => t.name === spec.tool)
  const broken = scenario.calls.some((spec, i) => hiddenNative(spec) && !spec.fakeParent && out.some((x) => x.call === `c${i}` && x.clause === 'CODE-1'))
  if (!broken) return
  for (const x of out) {
    if (x.clause !== 'CODE-5' || x.call === undefined || !scenario.calls[Number(x.call.slice(1))]?.fakeParent) continue
    Object.assign(x, refiled(x, 'CODE-1'))
  }
}

/** CODE-1's proviso across the calls of a case that may end at IN-2 first. */
export function in2Consistency(scenario: Scenario, trace: Trace): Finding[] {
  const ends = new Map<string, { callId: string; how: string; clause: string }>()
  const out: Finding[] = []
  scenario.calls.forEach((spec, index) => {
    const record = trace.calls[index]
    if (spec.program || spec.malformed || spec.fakeParent || spec.abortAtEntry || !record?.result) return
    const e = predict(scenario, index)
    if (!e.outcome.in2First) return
    const callId = `c${index}`
    const how = JSON.stringify({ isError: readSafe(() => record.result!.isError), code: record.code })
    const key = JSON.stringify(spec.args)
    const other = ends.get(key)
    if (!other) return void ends.set(key, { callId, how, clause: e.outcome.clause })
    const clause = [e.outcome.clause, other.clause].find((c) => c !== 'IN-4') ?? 'IN-4'
    const detail = `${callId} ended ${how}, but ${other.callId}, with no visible tool and the same arguments, ended ${other.how}`
    if (other.how !== how) reporter('code-mode', out, callId)(clause, 'in2-first-differs', detail)
  })
  return out
}
