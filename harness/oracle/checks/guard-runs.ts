/**
 * GRD-1, GRD-3: the guards' run, settled from the trace. SPEC fixes no order among guards
 * (contrast PRE-1, EXE-1) and names no deciding guard, so the model's registration-order run is
 * one branch of many: any order, each guard in scope at most once, stopping at a denial or not.
 * A run that keeps to that is the expectation; the deciding guard is one that ran and denied or
 * threw, and its routing row (a guard deny: post-execute may run; a guard throw: it must not)
 * fixes the outcome. A guard run twice, out of scope, or a run that skips a guard with no denial
 * in it, is left to routing's order and scope checks against the model's run.
 */
import { isUndefinedDesc } from '../../scenario/read-desc.js'
import type { GuardSpec } from '../../scenario/types.js'
import { tagClauses } from '../model/clause-tags.js'
import type { Expected } from '../predict.js'
import { count, indexesOf, type CallView } from './call-view.js'

type Verdict = 'pass' | 'deny' | 'throw'

const verdictOf = (guard: GuardSpec): Verdict => {
  const v = guard.verdict
  if (v.kind === 'throws') return 'throw'
  return v.kind === 'returns' && !isUndefinedDesc(v.value) ? 'deny' : 'pass'
}

const GUARD_OUTCOMES = ['GRD-1', 'GRD-3', 'APR-3']

export function settleGuards(view: CallView): Expected {
  const { e, scenario } = view
  if (e.guardsEntered === 0) return e
  const got = indexesOf(view, 'guard')
  if (new Set(got).size !== got.length || got.some((i) => !e.guards.includes(i))) return e
  const verdict = (i: number) => verdictOf(scenario.guards[i]!)
  const deniers = got.filter((i) => verdict(i) === 'deny')
  const throwers = got.filter((i) => verdict(i) === 'throw')
  // No guard in the run denied: every guard in scope must have run (in any order).
  if (deniers.length + throwers.length === 0 && got.length !== e.guards.length) return e
  // A post-execute run shows a denial decided; otherwise a throw may have (its row is the stricter).
  const decider = count(view, 'post') > 0 && deniers.length > 0 ? deniers[0] : (throwers[0] ?? deniers[0])
  const rest = e.guards.filter((i) => !got.includes(i))
  const settled = { ...e, guards: [...got, ...rest], guardsEntered: decider === undefined ? got.length : got.indexOf(decider) + 1 }
  const predicted = e.guardsEntered > 0 ? verdict(e.guards[e.guardsEntered - 1]!) : 'pass'
  const actual = decider === undefined ? 'pass' : verdict(decider)
  if (predicted === actual || actual === 'pass') return tagClauses(scenario, settled)
  // The other guard row decided: whether post-execute may see it, and the outcome's clause (unless a later stage set it).
  const postRuns = actual === 'throw' ? false : undefined
  const clause = actual === 'throw' ? 'GRD-3' : e.approvalRequested ? 'APR-3' : 'GRD-1'
  const outcome = GUARD_OUTCOMES.includes(e.outcome.clause) ? { ...e.outcome, clause } : e.outcome
  return tagClauses(scenario, { ...settled, outcome, postRuns })
}
