/**
 * One call's slice of a trace, read once for every check: which stages it entered, where its
 * abort, body and settling fell, and the reporter its checks file violations through. Every
 * violation names its check (`<clause>:<module>/<site>`), so a case's verdict reads as data.
 */
import type { CallRecord, Stage, StageEvent, Trace } from '../../scenario/trace.js'
import type { CallSpec, Scenario } from '../../scenario/types.js'
import type { ToolExecutionResult } from '../../contract/spec.js'
import type { Expected } from '../predict.js'
import type { Violation } from '../violation.js'

/** A violation with the check that filed it. */
export type Finding = Violation & { check: string }

/** Files a violation of `clause` found by `site`, one named check of a check module. */
export type Report = (clause: string, site: string, detail: string) => void

export function reporter(module: string, out: Finding[], call?: string): Report {
  return (clause, site, detail) => out.push({ clause, ...(call !== undefined ? { call } : {}), detail, check: `${clause}:${module}/${site}` })
}

export const stageEvents = (trace: Trace, callId: string): StageEvent[] =>
  trace.events.filter((e): e is StageEvent => e.ev === 'enter' && e.call === callId)

export interface CallView {
  scenario: Scenario
  trace: Trace
  e: Expected
  record: CallRecord
  callId: string
  spec: CallSpec
  /** A nested call, dispatched by a body (it asks no executionMode). */
  nested: boolean
  entered: StageEvent[]
  /** The reporter for `module`'s checks on this call. */
  report: (module: string) => Report
}

/** A settled call: the view, its published result, and where its events fell in the trace (-1: never). */
export interface SettledView extends CallView {
  result: ToolExecutionResult
  abortAt: number
  bodyAt: number
  bodyLeftAt: number
  settledAt: number
}

export const count = (view: CallView, stage: Stage): number => view.entered.filter((x) => x.stage === stage).length
export const indexesOf = (view: CallView, stage: Stage): number[] => view.entered.filter((x) => x.stage === stage).map((x) => x.index)

export function settledView(view: CallView, result: ToolExecutionResult): SettledView {
  const { trace, callId } = view
  const at = (ev: string, stage?: Stage) =>
    trace.events.findIndex((x) => x.ev === ev && 'call' in x && x.call === callId && (stage === undefined || ('stage' in x && x.stage === stage)))
  const settledAt = at('settled')
  const abortAt = at('abort')
  // An abort after this call settled (a sibling sharing its callId aborted later) changes nothing about it.
  const late = abortAt >= 0 && settledAt >= 0 && abortAt > settledAt
  return { ...view, result, abortAt: late ? -1 : abortAt, bodyAt: at('enter', 'body'), bodyLeftAt: at('leave', 'body'), settledAt }
}

export const approvalRequested = (trace: Trace, callId: string): boolean => trace.events.some((x) => x.ev === 'approval-request' && x.call === callId)

export function readSafe<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

export function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}
