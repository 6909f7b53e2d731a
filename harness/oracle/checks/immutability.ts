/**
 * Immutability: IN-1, IN-3, RES-2, PST-1, FIN-3, SCP-1 — every stage sees the execution frozen and
 * the result deep-frozen, the published result is deep-frozen, no listener's rewrite of the
 * execution takes effect, the body that runs is the routed tool's (its scope's: SCP-1) with the
 * arguments snapshotted at entry, and one call's stages all see one token.
 */
import { isDeepFrozen } from '../../scenario/inspect.js'
import { isLosslessDesc, jsonOf } from '../../scenario/read-desc.js'
import type { Stage, Trace } from '../../scenario/trace.js'
import type { Scenario, ValueDesc } from '../../scenario/types.js'
import { deepEqualJson } from '../json-equal.js'
import { parseJson, reporter, stageEvents, type CallView, type Finding, type SettledView } from './call-view.js'

/** The clause of a stage's frozen execution: RES-2 for observers, IN-1 for the rest. */
export const execClause = (stage: Stage | 'approval'): string => (stage === 'observer' ? 'RES-2' : 'IN-1')

/** The clause of the frozen result a stage is handed, where the stage is handed one. */
export const resultClause: Partial<Record<Stage | 'approval', string>> = { post: 'PST-1', finalize: 'FIN-3', observer: 'RES-2' }

export function frozenViews(view: SettledView): void {
  const report = view.report('immutability')
  for (const x of view.entered) {
    if (!x.execFrozen) report(execClause(x.stage), 'execution-not-frozen', `${x.stage} saw an execution that is not frozen`)
    if (x.resultFrozen === false) report(resultClause[x.stage] ?? 'RES-2', 'result-not-frozen', `${x.stage} saw a result that is not deep-frozen`)
  }
  if (!isDeepFrozen(view.result)) report('RES-2', 'published-not-frozen', 'the published result is not deep-frozen')
}

/** No rewrite of the execution took effect, and the body that ran is the routed one, with the entry snapshot. */
export function executionIntact(view: SettledView): void {
  const { e, spec } = view
  const report = view.report('immutability')
  tamperTookEffect(view)
  const body = view.entered.find((x) => x.stage === 'body')
  if (!body?.detail || !e.tool) return
  const seen = JSON.parse(body.detail) as { tool: string; scope?: string; name: string; args: unknown }
  if (seen.tool !== e.tool.name || seen.name !== e.tool.name) report('IN-1', 'body-tool', `the body that ran was ${seen.tool} named ${seen.name}`)
  else if (seen.scope !== e.tool.scope) {
    report('SCP-1', 'body-scope', `the body that ran was registered for ${seen.scope ?? 'everyone'}, expected ${e.tool.scope ?? 'the global tool'}`)
  }
  if (isLosslessDesc(spec.args) && !deepEqualJson(seen.args, jsonOf(spec.args))) {
    report('IN-1', 'body-arguments', 'the body ran with arguments other than the snapshot taken at entry')
  }
}

/** IN-1: a listener's rewrite of the execution took effect (read from the trace alone: a hung case too). */
export function tamperTookEffect(view: Pick<CallView, 'trace' | 'callId' | 'report'>): void {
  const tamper = view.trace.events.find((x) => x.ev === 'tamper' && x.call === view.callId)
  if (tamper && tamper.ev === 'tamper' && tamper.changed.length > 0) {
    view.report('immutability')('IN-1', 'tamper', `a listener changed the execution's ${tamper.changed.join(', ')}`)
  }
}

/** IN-3: the stages of one call see one token, never one the caller put on its input (numbered below zero). */
export function oneToken(view: CallView): void {
  const tokens = new Set(view.entered.map((x) => x.token))
  if (tokens.size > 1) view.report('immutability')('IN-3', 'tokens-within-call', 'stages of one call saw different tokens')
  if ([...tokens].some((t) => t < 0)) view.report('immutability')('IN-3', 'token-chosen-by-caller', 'a stage saw the token the caller put on its input')
}

/**
 * IN-3 for the nested calls bodies dispatched, after the top-level calls: a nested call is an
 * execution of its own, so a token its stages saw must not be its parent's or any other call's.
 */
export function nestedTokensOfTheirOwn(trace: Trace, owners: Map<number, string>, out: Finding[]): void {
  for (const record of trace.nested ?? []) {
    const entered = stageEvents(trace, record.callId)
    const report = reporter('immutability', out, record.callId)
    for (const x of entered) {
      const owner = owners.get(x.token)
      if (owner !== undefined && owner !== record.callId) report('IN-3', 'token-of-another-call', `${record.callId} saw the token of ${owner}`)
      owners.set(x.token, record.callId)
    }
  }
}

/** IN-3: no two calls of a case see one token (`owners`: token → the call that saw it first). */
export function tokenOfItsOwn(view: CallView, owners: Map<number, string>): void {
  for (const x of view.entered) {
    const owner = owners.get(x.token)
    if (owner !== undefined && owner !== view.callId) view.report('immutability')('IN-3', 'token-of-another-call', `${view.callId} saw the token of ${owner}`)
    owners.set(x.token, view.callId)
  }
}

/** Every argument descriptor the scenario hands a tool: direct calls, programs and nested dispatches. */
function handedArguments(scenario: Scenario): ValueDesc[] {
  return [
    ...scenario.calls.flatMap((c) => [c.args, ...(c.program ?? []).map((p) => p.args)]),
    ...scenario.tools.flatMap((t) => t.body.steps.flatMap((step) => (step.kind === 'dispatch' ? [step.args] : []))),
  ]
}

/**
 * IN-1: render and presentationMeta are handed the snapshot taken at entry, so what they see is
 * some call's arguments as the scenario gave them, never a caller's object changed since. Where
 * some arguments are not lossless JSON, a projection of them is IN-2's, and nothing is judged.
 */
export function projectionsSawSnapshots(scenario: Scenario, trace: Trace, out: Finding[]): void {
  const handed = handedArguments(scenario)
  if (!handed.every(isLosslessDesc)) return
  const snapshots = handed.map(jsonOf)
  const stray = (trace.projected ?? []).find((p) => !snapshots.some((s) => deepEqualJson(parseJson(p.args), s)))
  if (stray) {
    reporter('immutability', out)('IN-1', 'projection-arguments', `a projection of ${stray.tool} was handed arguments ${stray.args}, no call's snapshot`)
  }
}
