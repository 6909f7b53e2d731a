/**
 * The judge: compares one scenario's trace with the routing model's predictions and lists every
 * deviation, each naming the clause it breaks. Suites filter the list to the clauses they own, so
 * one bug fails the clauses it breaks and no others.
 */
import { clauseById } from '../clauses.js'
import { isDeepFrozen } from '../scenario/inspect.js'
import { isLosslessDesc, jsonOf } from '../scenario/values.js'
import type { CallRecord, Stage, StageEvent, Trace } from '../scenario/trace.js'
import type { CallSpec, Scenario } from '../scenario/types.js'
import type { ToolExecutionResult } from '../spec.js'
import { predict, shapeSources, type Expected, type PredictOptions, type ShapeSource } from './predict.js'
import { show } from '../runner/safe-read.js'
import type { Violation } from './violation.js'
import { attackViolations, finalizerOwnership, noResurrection, renderSnapshot, voidAfterTamper } from './hostile.js'

export type { Violation } from './violation.js'

export function judge(scenario: Scenario, trace: Trace): Violation[] {
  const out: Violation[] = []
  if (trace.hung) out.push({ clause: hangClause(scenario, trace.hung.lastStage, trace), detail: `the case ran past its time budget; last stage entered: ${trace.hung.lastStage}` })
  if (trace.hung || trace.adapterError) return out
  const tokens = new Map<number, string>()
  scenario.calls.forEach((spec, index) => {
    if (spec.program) return
    const callId = `c${index}`
    const record = trace.calls[index]
    if (!record) return
    const v = (clause: string, detail: string) => out.push({ clause, call: callId, detail })
    const e = predictBranch(scenario, trace, index, callId)
    out.push(...rootOnly(e, voidAfterSecondNext(scenario, trace, callId, judgeEitherShape(scenario, trace, index, record, callId))))
    judgeNested(scenario, trace, e, spec, callId, (clause, call, detail) => out.push({ clause, call, detail }))
    attackViolations(trace, callId, v)
    finalizerOwnership(e.tool, trace, record, callId, v)
    noResurrection(trace, record, callId, v)
    renderSnapshot(e, record, v)
    for (const e of stageEvents(trace, callId)) {
      const owner = tokens.get(e.token)
      if (owner !== undefined && owner !== callId) v('IN-3', `${callId} saw the token of ${owner}`)
      tokens.set(e.token, callId)
    }
  })
  out.push(...in2Consistency(scenario, trace))
  if (trace.events.some((e) => e.ev === 'present')) out.push({ clause: 'DEF-3', detail: 'the registry called presentCall/presentResult during execution' })
  return voidAfterTamper(out, trace)
}

/**
 * CODE-1's proviso: a call with no visible tool and arguments that are not lossless JSON may end at
 * IN-2 first only if a call to a missing tool with the same arguments ends the same way.
 */
function in2Consistency(scenario: Scenario, trace: Trace): Violation[] {
  const ends = new Map<string, { callId: string; how: string; clause: string }>()
  const out: Violation[] = []
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
    if (other.how !== how) out.push({ clause, call: callId, detail: `${callId} ended ${how}, but ${other.callId}, with no visible tool and the same arguments, ended ${other.how}` })
  })
  return out
}

function readSafe<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** Where SPEC leaves a branch open, the trace says which one the implementation took (APR-1). */
function predictBranch(scenario: Scenario, trace: Trace, index: number, callId: string, nested?: CallSpec, lax?: ReadonlySet<ShapeSource>): Expected {
  const base: PredictOptions = { ...(nested ? { nested } : {}), ...(lax ? { lax } : {}) }
  const e = predict(scenario, index, base)
  const hooked = trace.events.some((x) => (x.ev === 'enter' && ['pre', 'guard', 'wrapper', 'post'].includes(x.stage) && x.call === callId) || (x.ev === 'approval-request' && x.call === callId))
  // DEF-5: no hook saw a call a defineTool tool refuses, so the registry validated at entry.
  if (e.defineRefuses && !hooked) return predict(scenario, index, { ...base, defineAtEntry: true })
  if (!e.agentlessAsk) return e
  const asked = trace.events.some((x) => x.ev === 'approval-request' && x.call === callId)
  return asked ? e : predict(scenario, index, { ...base, denyAgentlessAsk: true })
}

/**
 * Nested calls a body dispatched (`dispatch` steps, parent = the body's token), judged like any
 * call: the full pipeline (CODE-2), with the caller's agent. Skipped when the caller aborted: the
 * nested call shares its signal, and where that abort lands is not the nested call's to explain.
 */
function judgeNested(scenario: Scenario, trace: Trace, e: Expected, spec: CallSpec, callId: string, v: (clause: string, call: string, detail: string) => void): void {
  if (!e.tool || trace.events.some((x) => x.ev === 'abort' && x.call === callId)) return
  if (!trace.events.some((x) => x.ev === 'enter' && x.stage === 'body' && x.call === callId)) return
  e.tool.body.steps.forEach((step, at) => {
    if (step.kind !== 'dispatch') return
    const nestedId = `${callId}/${at}`
    const record = trace.nested?.find((r) => r.callId === nestedId)
    if (!record) return
    const call: CallSpec = { tool: step.tool, args: step.args, ...(spec.agent ? { agent: spec.agent } : {}) }
    const index = Number(callId.slice(1).split('/')[0])
    judgeCall(scenario, trace, predictBranch(scenario, trace, index, nestedId, call), record, nestedId, (clause, detail) => v(clause, nestedId, detail), call)
  })
}

/** A nested call's success carrying concludesTurn, which the dispatching body forwards (CTX-2). */
function nestedConclusion(trace: Trace, callId: string): boolean {
  return (trace.nested ?? []).some((r) => {
    if (!r.callId.startsWith(`${callId}/`) || r.callId.slice(callId.length + 1).includes('/')) return false
    try {
      return r.result?.isError === false && (r.result as { concludesTurn?: unknown }).concludesTurn === true
    } catch {
      return false
    }
  })
}

/**
 * Judges one call on OUT-5's strict branch (misshapen lossless content is INVALID_TOOL_OUTPUT) and,
 * when that fails, on the branches that publish it as it is: R clauses hold if any branch holds,
 * and taking the lax branch is reported under OUT-5 (S) alone.
 */
function judgeEitherShape(scenario: Scenario, trace: Trace, index: number, record: CallRecord, callId: string): Violation[] {
  const run = (lax: ReadonlySet<ShapeSource>): Violation[] => {
    const list: Violation[] = []
    judgeCall(scenario, trace, predictBranch(scenario, trace, index, callId, undefined, lax), record, callId, (clause, detail) => list.push({ clause, call: callId, detail }))
    return list
  }
  const strict = run(new Set())
  // Branches are compared on R clauses alone: S deviations (OUT-4, PRE-8…) must not tip the choice.
  const others = (list: Violation[]) => list.filter((x) => clauseById.get(x.clause)?.level === 'R').length
  if (others(strict) === 0) return strict
  const sources = shapeSources(scenario, index)
  let best = strict
  let bestLax: ShapeSource[] = []
  for (let mask = 1; mask < 1 << sources.length; mask++) {
    const lax = sources.filter((_, i) => mask & (1 << i))
    const alt = run(new Set(lax))
    if (others(alt) < others(best)) [best, bestLax] = [alt, lax]
  }
  if (best === strict) return strict
  const taken = { clause: 'OUT-5', call: callId, detail: `lossless ${bestLax.join(', ')} output of the wrong shape was published instead of ending as INVALID_TOOL_OUTPUT` }
  return [...best.filter((x) => x.clause !== 'OUT-5'), taken]
}

/** Clauses that end a call before any policy runs: everything after them is their echo. */
const ENDS_AT_ENTRY = new Set(['IN-2', 'CAN-1', 'CODE-1', 'CODE-5'])

/** When a call that should have ended at entry went on, only that entry clause stands (one fault, one verdict). */
function rootOnly(e: Expected, list: Violation[]): Violation[] {
  const root = e.endedAtEntry ?? e.outcome.clause
  if (!ENDS_AT_ENTRY.has(root) || !list.some((x) => x.clause === root)) return list
  return list.filter((x) => x.clause === root)
}

/**
 * When a wrapper's second next() re-ran the inner chain (PRE-8, S), what EXE-1 and EXE-4 key on —
 * which wrappers and body ran, what they returned — is the second run's: void for this call.
 */
function voidAfterSecondNext(scenario: Scenario, trace: Trace, callId: string, list: Violation[]): Violation[] {
  return secondNextReran(scenario, trace, callId) ? list.filter((x) => x.clause !== 'EXE-1' && x.clause !== 'EXE-4') : list
}

/** Whether a wrapper calling next() twice made an inner wrapper or the body run again (PRE-8). */
function secondNextReran(scenario: Scenario, trace: Trace, callId: string): boolean {
  const entered = stageEvents(trace, callId).filter((x) => x.stage === 'wrapper' || x.stage === 'body')
  const reran = new Set(entered.map((x) => `${x.stage}${x.index}`)).size !== entered.length
  return reran && entered.some((x) => x.stage === 'wrapper' && scenario.wrappers[x.index]?.action.kind === 'next-twice')
}

function hangClause(scenario: Scenario, lastStage: string, trace: Trace): string {
  // An approval request is not a stage: when it is the last thing that happened, the call hung waiting on it.
  const last = [...trace.events].reverse().find((e) => e.ev === 'enter' || e.ev === 'approval-request')
  if (last?.ev === 'approval-request') return 'APR-2'
  if (lastStage.startsWith('pre')) return 'PRE-6'
  if (lastStage.startsWith('body')) return scenario.wrappers.some((w) => w.action.kind === 'replace-signal') ? 'EXE-2' : 'CAN-3'
  if (lastStage.startsWith('approval') || scenario.config.approval?.kind === 'never') return 'APR-2'
  // Before any stage, on an ill-typed input: IN-5's (S), not IN-4's. Calls run one after another
  // wait behind the first unsettled one; concurrent calls each hang on their own.
  const unsettled = scenario.calls.filter((_, i) => !trace.calls[i]?.result && trace.calls[i]?.rejected === undefined)
  const hanging = scenario.concurrent ? unsettled : unsettled.slice(0, 1)
  if (hanging.length > 0 && hanging.every((c) => c.malformed)) return 'IN-5'
  return 'IN-4'
}

const stageEvents = (trace: Trace, callId: string): StageEvent[] =>
  trace.events.filter((e): e is StageEvent => e.ev === 'enter' && e.call === callId)

function judgeCall(scenario: Scenario, trace: Trace, e: Expected, record: CallRecord, callId: string, v: (clause: string, detail: string) => void, nestedSpec?: CallSpec): void {
  const spec = nestedSpec ?? scenario.calls[Number(callId.slice(1))]!
  const scoped = (stage: Stage, index: number): boolean => {
    const list = { pre: scenario.pre, guard: scenario.guards, wrapper: scenario.wrappers, post: scenario.post, observer: scenario.observers }[stage as 'pre'] as { scope?: string }[] | undefined
    return list?.[index]?.scope !== undefined
  }
  const entered = stageEvents(trace, callId)
  const count = (stage: Stage) => entered.filter((x) => x.stage === stage).length
  // APR-3 blames a granted approval for skipping the guards; when the guards did run, the denial
  // they returned was ignored: that is the guard's own clause (GRD-1, GRD-3), not APR-3's.
  if (e.outcome.clause === 'APR-3' && e.guardsEntered > 0 && count('guard') >= e.guardsEntered) {
    const decider = scenario.guards[e.guards[e.guardsEntered - 1]!]
    e = { ...e, outcome: { ...e.outcome, clause: decider?.verdict.kind === 'throws' ? 'GRD-3' : 'GRD-1' } }
  }
  // And the other way round: no guard ran at all after an approval, so a guard's verdict never
  // had its chance; the granted approval bypassed them (APR-3).
  if (e.approvalRequested && e.guardsEntered > 0 && count('guard') === 0 && e.outcome.clause.startsWith('GRD')) {
    e = { ...e, outcome: { ...e.outcome, clause: 'APR-3' } }
  }
  const indexesOf = (stage: Stage) => entered.filter((x) => x.stage === stage).map((x) => x.index)
  /** Hooks of one kind: once each (PRE-8), only in scope (PRE-7, SCP-2), in registration order. */
  const ordered = (stage: Stage, expected: number[], clause: string) => {
    const got = indexesOf(stage)
    const inScope = { pre: e.pre, guard: e.guards, wrapper: e.wrappers, post: e.post, observer: e.observers }[stage as 'pre'] ?? []
    if (new Set(got).size !== got.length) return v(stage === 'guard' ? 'GRD-1' : 'PRE-8', `${stage} hooks entered ${show(got)}: one hook ran twice`)
    if (got.some((i) => !inScope.includes(i))) return v(stage === 'guard' ? 'SCP-2' : 'PRE-7', `${stage} hooks entered ${show(got)}, but only ${show(inScope)} apply to this caller`)
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      const scopedMissing = expected.some((i) => !got.includes(i) && scoped(stage, i))
      v(scopedMissing ? (stage === 'guard' ? 'SCP-2' : 'PRE-7') : clause, `${stage} hooks entered ${show(got)}, expected ${show(expected)}`)
    }
  }

  // A nested call is dispatched by a body, which asks no executionMode.
  const modeAnswered = record.mode === 'parallel' || record.mode === 'exclusive'
  const modeWrong = e.mode === 'unconstrained' ? !modeAnswered : record.mode !== e.mode
  if (!nestedSpec && modeWrong) v(e.mode === 'parallel' ? 'MODE-1' : e.tool?.define && e.mode === 'exclusive' ? 'DEF-5' : 'MODE-2', `executionMode answered ${record.mode}, expected ${e.mode}`)
  // An ill-typed input is judged under IN-5 (S) alone: no R clause depends on how it ends.
  if (spec.malformed) return judgeIllTyped(record, v)
  if (record.rejected !== undefined) return v('IN-4', `execute rejected: ${record.rejected}`)
  const result = record.result
  if (!result) return v('IN-4', 'execute did not settle')

  const abortAt = trace.events.findIndex((x) => x.ev === 'abort' && x.call === callId)
  const bodyAt = trace.events.findIndex((x) => x.ev === 'enter' && x.stage === 'body' && x.call === callId)
  const bodyLeftAt = trace.events.findIndex((x) => x.ev === 'leave' && x.stage === 'body' && x.call === callId)
  const settledAt = trace.events.findIndex((x) => x.ev === 'settled' && x.call === callId)
  const abortedBeforeBody = abortAt >= 0 && (bodyAt < 0 || abortAt < bodyAt)
  const abortedDuringBody = abortAt >= 0 && bodyAt >= 0 && abortAt > bodyAt && (bodyLeftAt < 0 || abortAt < bodyLeftAt)
  const gateAtAbort = abortAt >= 0 ? lastEnteredBefore(trace, callId, abortAt) : undefined

  // Stages that must not run at all for this outcome.
  const policyBlind = !e.tool || e.endedAtEntry !== undefined
  if (policyBlind) {
    const clause = e.endedAtEntry ?? e.outcome.clause
    for (const stage of ['pre', 'approval', 'guard', 'wrapper', 'body', 'post'] as Stage[]) {
      if (count(stage) > 0) v(clause, `${stage} ran although the call should end before any policy`)
    }
    if (!e.tool && count('finalize') > 0) v(e.outcome.clause === 'CODE-1' ? 'CODE-1' : 'FIN-2', 'finalizeContent ran for a call whose tool was not visible')
    if (trace.events.some((x) => x.ev === 'approval-request' && x.call === callId)) v(clause, 'approval was requested')
  } else if (!abortedBeforeBody || abortAt < 0) {
    // With no abort before the body, the routing model fixes every stage.
    ordered('pre', e.pre.slice(0, e.preEntered), 'PRE-1')
    const requests = trace.events.filter((x) => x.ev === 'approval-request' && x.call === callId)
    if (requests.length !== (e.approvalRequested ? 1 : 0)) v(e.approvalRequested ? 'APR-1' : e.outcome.clause, `approval requested ${requests.length} times`)
    for (const request of requests) {
      if (request.ev !== 'approval-request') continue
      if (request.keys.includes('arguments') || request.keys.includes('args')) v('APR-1', 'the approval request carried the arguments')
      if (request.toolName !== spec.tool) v('APR-1', `the approval request named tool ${show(request.toolName)}`)
      if (!request.signalIsCaller) v('APR-1', 'the approval request carried no signal')
      if (request.reason !== e.askReason) v('APR-1', `the approval request carried the reason ${show(request.reason)}, expected ${show(e.askReason)}`)
    }
    // Guards entered by a call that should have stopped before them echo that earlier stop.
    const guardsTooEarly = e.guardsEntered === 0 && count('guard') > 0 && !e.outcome.clause.startsWith('GRD')
    // Guards entered past the one that decided: its denial (or throw) was ignored, the guard's clause.
    const decider = e.guardsEntered > 0 ? scenario.guards[e.guards[e.guardsEntered - 1]!] : undefined
    const pastDecider = decider && count('guard') > e.guardsEntered ? (decider.verdict.kind === 'throws' ? 'GRD-3' : 'GRD-1') : undefined
    const guardClause = guardsTooEarly
      ? e.outcome.clause
      : e.approvalRequested && e.outcome.clause === 'APR-2'
        ? 'APR-2'
        : pastDecider ?? (e.guardsEntered > 0 && e.approvalRequested ? 'APR-3' : 'GRD-1')
    ordered('guard', e.guards.slice(0, e.guardsEntered), guardClause)
    ordered('wrapper', e.wrappers.slice(0, e.wrappersEntered), 'EXE-1')
    const bodyClause = e.bodyRuns ? 'EXE-1' : bodyStopClause(e)
    // A body re-run by a wrapper's second next() is PRE-8's case, not EXE-1's.
    const secondNext = indexesOf('wrapper').some((i) => scenario.wrappers[i]?.action.kind === 'next-twice')
    if (count('body') !== (e.bodyRuns ? 1 : 0)) v(secondNext && count('body') > 1 ? 'PRE-8' : bodyClause, `the body ran ${count('body')} times, expected ${e.bodyRuns ? 1 : 0}`)
    if (e.postRuns === true) ordered('post', e.post.slice(0, e.postEntered), 'PST-1')
    if (e.postRuns === false && count('post') > 0) v(e.outcome.clause, 'post-execute ran for an outcome that bypasses it')
  }
  if (abortedBeforeBody && bodyAt >= 0) {
    const stage = gateAtAbort ?? 'entry'
    v(stage === 'pre' ? 'PRE-6' : stage === 'approval' ? 'APR-2' : 'CAN-2', `the body started after the caller aborted (abort landed during ${stage})`)
  }
  if (abortAt >= 0 && !policyBlind) {
    if (abortedDuringBody && bodyLeftAt >= 0 && settledAt >= 0 && settledAt < bodyLeftAt) v('CAN-3', 'execute settled before the started body settled')
    if (abortedDuringBody && !result.isError) v('CAN-3', 'a body aborted mid-run was published as a success')
    // With nothing after the body that may change it, a success replaced by cancellation is exactly ABORTED.
    const replaced = !e.outcome.isError || e.outcome.code === 'ABORTED'
    if (abortedDuringBody && result.isError && replaced && e.post.length === 0 && record.code !== 'ABORTED') v('CAN-3', `a success cancelled mid-run ended with code ${record.code}, expected ABORTED`)
  }
  if (bodyLeftAt >= 0 && settledAt >= 0 && settledAt < bodyLeftAt) v('CAN-3', 'execute settled before the body settled')
  if (bodyAt >= 0 && bodyLeftAt < 0 && settledAt >= 0) v('CAN-3', 'execute settled while the body was still running')
  const preLeftAt = trace.events.reduce((last, x, i) => (x.ev === 'leave' && x.stage === 'pre' && x.call === callId ? i : last), -1)
  // A listener entered twice is PRE-8's (S) case: a chain it re-ran may still be pending, void here.
  const preReentered = new Set(indexesOf('pre')).size !== count('pre')
  if (!preReentered && count('pre') > 0 && settledAt >= 0 && (preLeftAt < 0 || settledAt < preLeftAt)) v('PRE-6', 'execute settled while a pre-execute listener was still pending')

  // finalize and observers
  if (e.tool) {
    const expected = e.finalizeRuns ? 1 : 0
    if (count('finalize') !== expected) v('FIN-2', `finalizeContent ran ${count('finalize')} times, expected ${expected}`)
  }
  const observed = entered.filter((x) => x.stage === 'observer').map((x) => x.index)
  if (JSON.stringify(observed) !== JSON.stringify(e.observers)) {
    const firstMissing = e.observers.findIndex((index, i) => observed[i] !== index)
    const afterThrow = e.observers.slice(0, Math.max(firstMissing, 0)).some((index) => scenario.observers[index]?.throws)
    v(afterThrow ? 'RES-4' : 'RES-1', `observers notified ${show(observed)}, expected ${show(e.observers)}`)
  }
  if (record.observed.some((o) => o !== result)) v('RES-1', 'an observer received a different object than execute resolved with')

  // freezing and immutability
  for (const x of entered) {
    if (!x.execFrozen) v(x.stage === 'observer' ? 'RES-2' : 'IN-1', `${x.stage} saw an execution that is not frozen`)
    if (x.resultFrozen === false) v(x.stage === 'post' ? 'PST-1' : x.stage === 'finalize' ? 'FIN-3' : 'RES-2', `${x.stage} saw a result that is not deep-frozen`)
  }
  if (!isDeepFrozen(result)) v('RES-2', 'the published result is not deep-frozen')
  const shapeless = publishedShapeProblem(result)
  if (shapeless) v('OUT-5', shapeless)
  const tamper = trace.events.find((x) => x.ev === 'tamper' && x.call === callId)
  if (tamper && tamper.ev === 'tamper' && tamper.changed.length > 0) v('IN-1', `a listener changed the execution's ${tamper.changed.join(', ')}`)
  const body = entered.find((x) => x.stage === 'body')
  if (body?.detail && e.tool) {
    const seen = JSON.parse(body.detail) as { tool: string; scope?: string; name: string; args: unknown }
    if (seen.tool !== e.tool.name || seen.name !== e.tool.name) v('IN-1', `the body that ran was ${seen.tool} named ${seen.name}`)
    else if (seen.scope !== e.tool.scope) v('SCP-1', `the body that ran was registered for ${seen.scope ?? 'everyone'}, expected ${e.tool.scope ?? 'the global tool'}`)
    if (isLosslessDesc(spec.args) && !deepEqualJson(seen.args, jsonOf(spec.args))) v('IN-1', 'the body ran with arguments other than the snapshot taken at entry')
  }
  if (abortAt >= 0 && bodyAt >= 0 && abortAt < bodyLeftAt && record.bodySignalAborted === false) v('EXE-2', 'the caller aborted while the body ran, but the signal the body held did not abort')
  const tokens = new Set(entered.map((x) => x.token))
  if (tokens.size > 1) v('IN-3', 'stages of one call saw different tokens')

  const decidedAt = decisionPoint(trace, callId, e)
  const finalizeDetail = entered.find((x) => x.stage === 'finalize')?.contexts
  const finalizerSaw = parseDetail(finalizeDetail)
  // A body re-run by a second next() deferred its contexts twice: PRE-8's doing, so unchecked here.
  if (secondNextReran(scenario, trace, callId)) e = { ...e, outcome: { ...e.outcome, contexts: undefined } }
  judgeOutcome(e, result, record.code, v, abortAt >= 0, decidedAt >= 0 && abortAt > decidedAt, nestedConclusion(trace, callId), finalizerSaw)
}

function parseDetail(detail: string | undefined): unknown {
  try {
    return detail === undefined ? undefined : (JSON.parse(detail) as unknown)
  } catch {
    return undefined
  }
}

function judgeIllTyped(record: CallRecord, v: (clause: string, detail: string) => void): void {
  if (record.rejected !== undefined) return v('IN-5', `execute rejected an ill-typed input: ${record.rejected}`)
  const isError = (record.result as { isError?: unknown } | undefined)?.isError
  if (isError !== true) v('IN-5', record.result ? 'an ill-typed input did not end as an error outcome' : 'execute did not settle')
}

function lastEnteredBefore(trace: Trace, callId: string, at: number): Stage | undefined {
  let open: Stage | undefined
  for (let i = 0; i < at; i++) {
    const x = trace.events[i]!
    if (x.ev === 'enter' && x.call === callId) open = x.stage
    if (x.ev === 'approval-request' && x.call === callId) open = 'approval'
  }
  return open
}

/**
 * From where the outcome is an error an abort must not replace (CAN-4); -1 if none. A tool's own
 * error is its body's once the body has started; a denial is the deciding listener's once it was
 * entered (the registry must await it: PRE-6).
 */
function decisionPoint(trace: Trace, callId: string, e: Expected): number {
  const clause = e.outcome.clause
  if (clause === 'OUT-3' || clause === 'OUT-4') return trace.events.findIndex((x) => x.ev === 'enter' && x.stage === 'body' && x.call === callId)
  if (clause !== 'PRE-2' && clause !== 'PRE-3') return -1
  let seen = 0
  return trace.events.findIndex((x) => x.ev === 'enter' && x.stage === 'pre' && x.call === callId && ++seen === e.preEntered)
}

function bodyStopClause(e: Expected): string {
  return e.outcome.clause
}

function judgeOutcome(
  e: Expected,
  result: ToolExecutionResult,
  code: string | undefined,
  v: (clause: string, detail: string) => void,
  aborted: boolean,
  abortedAfterDecision: boolean,
  /** A nested success carrying concludesTurn, which the body forwarded: the body concluded (CTX-2). */
  forwarded = false,
  /** The contexts the finalizer saw on the result it was handed, when it ran. */
  finalizerSaw?: unknown,
): void {
  const shape = shapeProblem(result)
  if (shape) {
    // A concludesTurn that is present but not true breaks CTX-2 as well as the shape (RES-3).
    if ('concludesTurn' in result && (result as { concludesTurn?: unknown }).concludesTurn !== true) v('CTX-2', shape)
    v('RES-3', shape)
    // A misshapen outcome of the wrong kind (a success where the model says error) breaks the deciding clause too.
    const isError = (result as { isError?: unknown } | null)?.isError
    if (!aborted && typeof isError === 'boolean' && isError !== e.outcome.isError) v(e.outcome.clause, `outcome isError=${isError}, expected ${e.outcome.isError}`)
    return
  }
  let roundTrip: string | undefined
  try {
    roundTrip = JSON.stringify(result)
  } catch {
    roundTrip = undefined
  }
  if (roundTrip === undefined || !deepEqualJson(JSON.parse(roundTrip), result)) v('META-2', 'the outcome does not survive a JSON round trip')
  const expected = e.outcome
  if (aborted && abortedAfterDecision) {
    // A thrown code kept or lost is OUT-4's (S): CAN-4 asks only that the error stays an error.
    const codeKept = expected.code === undefined || expected.codeClause === 'OUT-4' || code === expected.code
    if (!result.isError || code === 'ABORTED' || !codeKept) {
      v('CAN-4', `an error settled before the abort was published as ${result.isError ? `code ${code}` : 'a success'}`)
    }
    return
  }
  if (aborted) {
    // Where the abort landed decides between a denial, ABORTED or a tool's own error; a success
    // is ruled out whenever the model predicts an error or the abort came before the body ended.
    if (!result.isError && expected.clause !== 'CAN-1' && e.tool && expected.isError) v(e.bodyRuns ? 'CAN-3' : 'CAN-2', 'an aborted call was published as a success')
    return
  }
  if (result.isError !== expected.isError) {
    return v(expected.clause, `outcome isError=${result.isError}, expected ${expected.isError}${code ? ` (code ${code})` : ''}`)
  }
  if (expected.code !== undefined && code !== expected.code && !expected.in2First) v(expected.codeClause ?? expected.clause, `error code ${code}, expected ${expected.code}`)
  if (result.isError && (expected.clause === 'OUT-3' || expected.clause === 'OUT-4') && expected.content === undefined) {
    if (!Array.isArray(result.content) || !result.content.some((b) => b?.type === 'text' && typeof b.text === 'string' && b.text.length > 0)) v('OUT-3', 'a thrown body left no model-readable text in content')
  }
  if (!result.isError) {
    if (expected.value !== undefined && !deepEqualJson(result.value, expected.value)) v(expected.clause, 'the published value differs from the one the tool produced')
    const concludes = (result as { concludesTurn?: unknown }).concludesTurn === true
    const concluded = (expected.concludes ?? false) || forwarded
    if (concludes !== concluded) v('CTX-2', `concludesTurn is ${concludes}, expected ${concluded}`)
    if (expected.meta) {
      const metaClause = expected.clause === 'EXE-4' || expected.clause === 'PST-1' ? expected.clause : 'OUT-2'
      const meta = (result as { meta?: unknown }).meta
      if (!expected.meta.present && meta !== undefined) v(metaClause, `meta ${show(meta)} published for a tool whose presentationMeta gives none`)
      const omitted = e.nested === true && meta === undefined
      if (expected.meta.present && !omitted && !deepEqualJson(meta, expected.meta.value)) v(metaClause, `meta is ${show(meta)}, expected presentationMeta's ${show(expected.meta.value)}`)
    }
  } else if ((result as { concludesTurn?: unknown }).concludesTurn !== undefined) {
    v('CTX-2', 'an error outcome carries concludesTurn')
  }
  if (expected.contexts !== undefined) {
    const got = result.additionalContexts ?? []
    const conforming = [expected.contexts, ...(expected.contextsAlt ?? [])]
    // Contexts the finalizer was handed intact and that were lost after it are the finalizer stage's fault (FIN-3).
    const lostAfterFinalize = finalizerSaw !== undefined && conforming.some((c) => deepEqualJson(finalizerSaw, c))
    if (!conforming.some((c) => deepEqualJson(got, c))) v(expected.clause === 'FIN-4' || lostAfterFinalize ? 'FIN-3' : 'CTX-1', `additionalContexts ${show(got)}, expected ${show(expected.contexts)}`)
  }
  if (expected.content !== undefined && !deepEqualJson(result.content, expected.content)) {
    v(expected.clause === 'PST-1' || expected.clause === 'PST-2' ? expected.clause : 'FIN-3', 'the published content is not the content put in place')
  }
}

export function shapeProblem(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return 'the outcome is not an object'
  const r = result as Record<string, unknown>
  if (typeof r.isError !== 'boolean') return 'isError is not a boolean'
  // Content of the wrong shape is OUT-5's (S); no content at all is a shape of its own.
  if (r.content === undefined) return 'the outcome has no content'
  if (r.isError) {
    if ('value' in r) return 'a failure carries a value'
    if (typeof r.error !== 'object' || r.error === null || typeof (r.error as { message?: unknown }).message !== 'string') return 'a failure has no error.message'
    if ('concludesTurn' in r) return 'a failure carries concludesTurn'
  } else {
    if (!('value' in r)) return 'a success has no value'
    if ('error' in r) return 'a success carries an error'
    if ('concludesTurn' in r && r.concludesTurn !== true) return 'concludesTurn is present but not true'
  }
  return undefined
}

/** Content that is not a ContentBlock[], or contexts that are not UserMessages, published (OUT-5). */
function publishedShapeProblem(result: unknown): string | undefined {
  const r = result as { content?: unknown; additionalContexts?: unknown } | null
  if (typeof r !== 'object' || r === null) return undefined
  if (!isBlocks(r.content)) return 'the published content is not a ContentBlock[]'
  const contexts = r.additionalContexts
  if (contexts === undefined) return undefined
  const messages = Array.isArray(contexts) && contexts.every((m) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'user' && isBlocks((m as { content?: unknown }).content))
  return messages ? undefined : 'the published additionalContexts are not UserMessages'
}

function isBlocks(content: unknown): boolean {
  return Array.isArray(content) && content.every((b) => {
    if (typeof b !== 'object' || b === null) return false
    const block = b as Record<string, unknown>
    if (block.type === 'text') return typeof block.text === 'string'
    return block.type === 'image' && typeof block.mimeType === 'string' && typeof block.data === 'string'
  })
}

export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return Object.is(a, b) || typeof a !== 'number'
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqualJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}
