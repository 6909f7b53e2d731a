/**
 * Verdicts the supervisor gives from what it saw itself: a clause whose child blocked its event
 * loop, exited (code 0 included), was killed, or ran out of memory while holding it; a clause the
 * time budget left untested; and escapes the child reported after a clause's verdict.
 */
import type { Violation } from '../oracle/judge.js'
import { counterexampleOf, escapeFields } from './judge-clause.js'
import type { ChildDeath } from './verdict.js'
import { infoVerdict, type PropertyInfo, type Verdict } from './verdict.js'
import type { Escape } from '../watchdog/record.js'
import { processMemoryCapMb } from './resolve-run.js'

export interface DeathContext {
  adapter: string
  seed: number
  maxOldSpaceMb: number
}

export function deathVerdict(property: PropertyInfo, death: ChildDeath, context: DeathContext): Verdict {
  if (death.ended.killed === 'blocked') return blockedVerdict(property, death, context)
  const exit = death.exit?.at?.clause === property.id ? death.exit : undefined
  const stage = exit?.stage ?? (death.where?.clause === property.id ? death.where.stage : undefined)
  const how = death.ended.outOfMemory
    ? `ran out of memory (heap capped at ${context.maxOldSpaceMb} MB, the whole process at ${processMemoryCapMb(context.maxOldSpaceMb)} MB)`
    : death.ended.killed === 'deadline'
      ? `was killed on a case that had not settled after ${Math.round((death.caseMs ?? 0) / 1000)} s`
      : death.ended.signal
        ? `was killed by ${death.ended.signal}`
        : `exited with code ${death.ended.exitCode}`
  const where = stage ? `in stage ${stage}` : 'before any stage'
  const detail = `${exit ? `${exit.detail}; ` : ''}the child process running the implementation ${how} ${where} while checking this clause;`
    + ' the remaining clauses ran in a fresh child'
  const violations: Violation[] = [{ clause: property.id, detail }]
  const verdict = failedBy(property, violations, exit?.at ? counterexampleOf(exit.at, context.adapter, context.seed, violations) : undefined, stage, death)
  return exit ? { ...verdict, escape: exit.kind } : verdict
}

/**
 * The clause whose case blocked the event loop: failed, naming the stage it blocked in. The
 * case (when the watchdog thread kept it) is the counterexample, and joins the corpus.
 */
export function blockedVerdict(property: PropertyInfo, death: ChildDeath, context: DeathContext): Verdict {
  const record = death.blocked?.clause === property.id ? death.blocked : undefined
  const stage = record?.stage ?? (death.where?.clause === property.id ? death.where.stage : undefined)
  const caseNumber = record?.caseNumber ?? death.where?.caseNumber
  const where = stage ? `in stage ${stage}` : property.scenario ? 'before any stage' : 'in its check (a property that records no stages)'
  const seconds = Math.round(death.silentMs / 100) / 10
  const detail = `event loop blocked for over ${seconds} s ${where}${caseNumber ? ` (case ${caseNumber})` : ''}: a synchronous loop or long`
    + ' synchronous work in the implementation; the child was killed and the remaining clauses ran in a fresh one'
  const violations: Violation[] = [{ clause: property.id, detail }]
  const counterexample = record ? counterexampleOf(record, context.adapter, context.seed, violations) : undefined
  return failedBy(property, violations, counterexample, stage, death)
}

function failedBy(property: PropertyInfo, violations: Violation[], found: Verdict['counterexample'], stage: string | undefined, death: ChildDeath): Verdict {
  const where = stage ? { stage } : {}
  return { ...infoVerdict(property), status: 'failed', violations, ...(found ? { counterexample: found } : {}), ...where, ended: death.ended }
}

/** A clause not run because an earlier clause of its family blocked the event loop or hung a case: failed, from that clause's verdict. */
export function judgedFromFamily(property: PropertyInfo, first: Verdict): Verdict {
  const where = first.stage ? ` in stage ${first.stage}` : ''
  const what = first.ended?.killed === 'deadline' ? 'hung a case' : 'blocked the event loop'
  const detail = `not run: ${first.clause} of the same family ${what}${where}, and this clause is judged from it`
  const violations = [{ clause: property.id, detail }]
  const ended = first.ended ? { ended: first.ended } : {}
  return { ...infoVerdict(property), status: 'failed', violations, ...(first.stage ? { stage: first.stage } : {}), ...ended }
}

export const BUDGET_REASON = 'untested (budget): the run\'s --time-budget ran out before this clause had a verdict'

export const budgetVerdict = (property: PropertyInfo): Verdict => ({ ...infoVerdict(property), status: 'untested', untested: BUDGET_REASON })

/**
 * Escapes the child reported, applied to the verdicts: a clause that passed (or broke) becomes
 * failed; escapes outside any clause are errors of the run.
 */
export function applyEscapes(verdicts: readonly Verdict[], escapes: readonly Escape[]): { verdicts: Verdict[]; errors: string[] } {
  const out = [...verdicts]
  const errors: string[] = []
  for (const escape of escapes) {
    const index = out.findIndex((v) => v.clause === escape.at?.clause)
    const verdict = out[index]
    if (!verdict) {
      errors.push(`${escape.kind} outside any property${escape.at ? ` (${escape.at.title})` : ''}: ${escape.detail}`)
      continue
    }
    if (verdict.status === 'failed' || verdict.status === 'untested') continue
    const { error: _replaced, ...rest } = verdict
    const violations = [{ clause: verdict.clause, detail: escape.detail }]
    out[index] = { ...rest, status: 'failed', violations, ...escapeFields(escape) }
  }
  return { verdicts: out, errors }
}
