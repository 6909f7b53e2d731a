/**
 * A trace as a timeline: one numbered line per stage entered or left, abort, approval request
 * and settle, with the step where a violation shows marked. The step is the first event of the
 * violating call in the stage that the clause's family governs; when that stage never ran, the
 * mark sits on the call's settle (what was missing is the violation itself).
 */
import type { Violation } from '../oracle/judge.js'
import type { Stage, Trace, TraceEvent } from '../scenario/trace.js'
import { clip } from '../safe/json-safe.js'
import { valueWords } from '../safe/value-text.js'

export interface TimelineStep {
  index: number
  text: string
  /** The violations this step shows, if any. */
  marks: Violation[]
}

const FAMILY_STAGE: Record<string, Stage> = {
  PRE: 'pre',
  APR: 'approval',
  GRD: 'guard',
  SCP: 'guard',
  EXE: 'wrapper',
  OUT: 'body',
  TMO: 'body',
  CTX: 'body',
  PST: 'post',
  FIN: 'finalize',
  RES: 'observer',
}

/** A step's detail (JSON text the interpreter recorded) in words; past this, long strings shrink in the middle. */
const MAX_DETAIL = 160

function clipped(text: string): string {
  try {
    return valueWords(JSON.parse(text) as unknown, MAX_DETAIL)
  } catch {
    return clip(text, MAX_DETAIL)
  }
}

function stepText(event: TraceEvent): string {
  switch (event.ev) {
    case 'enter':
      return `${event.call}  enter ${event.stage} #${event.index}${event.detail ? `  ${clipped(event.detail)}` : ''}`
    case 'leave':
      return `${event.call}  leave ${event.stage} #${event.index}`
    case 'abort':
      return `${event.call}  caller aborts${event.asBodySettled ? ' (as the body settled, before anything awaiting it resumed)' : ''}`
    case 'approval-request':
      return `${event.call}  approval requested (keys ${event.keys.join(', ')})`
    case 'tamper':
      return `${event.call}  a hook tried to rewrite ${event.changed.join(', ') || 'nothing'}`
    case 'attack':
      return `${event.call}  ${event.stage} wrote to the ${event.target}${event.changed.length ? `: ${event.changed.join(', ')} changed` : ' (no effect)'}`
    case 'settled':
      return `${event.call}  execute settled`
    case 'present':
      return `presentation callback of ${event.tool} called`
  }
}

function markedStep(events: readonly TraceEvent[], violation: Violation): number {
  const family = violation.clause.split('-')[0] ?? ''
  const stage = FAMILY_STAGE[family]
  const ofCall = (e: TraceEvent) => violation.call === undefined || ('call' in e && e.call === violation.call)
  if (stage) {
    const at = events.findIndex((e) => ofCall(e) && e.ev === 'enter' && e.stage === stage)
    if (at >= 0) return at
  }
  const settled = events.findIndex((e) => ofCall(e) && e.ev === 'settled')
  return settled >= 0 ? settled : events.length - 1
}

export function timeline(trace: Trace, violations: readonly Violation[]): TimelineStep[] {
  const steps: TimelineStep[] = trace.events.map((event, index) => ({ index: index + 1, text: stepText(event), marks: [] }))
  for (const violation of violations) {
    const at = markedStep(trace.events, violation)
    if (at >= 0) steps[at]!.marks.push(violation)
  }
  return steps
}

/** The timeline as terminal lines: `▶` marks the violating step, with the clause beside it. */
export function timelineLines(trace: Trace, violations: readonly Violation[]): string[] {
  const steps = timeline(trace, violations)
  const width = String(steps.length).length
  const lines = steps.map((step) => {
    const marker = step.marks.length ? '▶' : ' '
    const number = String(step.index).padStart(width)
    const note = step.marks.map((v) => `  ◀ ${v.clause}: ${v.detail}`).join('')
    return `${marker} ${number}  ${step.text}${note}`
  })
  const unplaced = steps.length === 0 ? violations.map((v) => `▶ (no stage ran)  ◀ ${v.clause}: ${v.detail}`) : []
  return [...lines, ...unplaced]
}
