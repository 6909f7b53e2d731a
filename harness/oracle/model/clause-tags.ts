/**
 * Tags each expectation of a prediction with its clause. The tags follow from what the model
 * predicted (the deciding clause, which stages run), so they are derived in one place and again
 * whenever the judge settles a branch the model left open (routing's guard blame).
 */
import type { Scenario } from '../../scenario/types.js'
import type { Expected, ExpectationClauses, OutcomeClauses, PredictedOutcome } from './types.js'

export type Untagged = Omit<Expected, 'clauseOf'>

export function tagClauses(scenario: Scenario, e: Untagged): Expected {
  return { ...e, clauseOf: clausesOf(scenario, e) }
}

function clausesOf(scenario: Scenario, e: Untagged): ExpectationClauses {
  const decided = e.outcome.clause
  const decider = e.guardsEntered > 0 ? scenario.guards[e.guards[e.guardsEntered - 1]!] : undefined
  const approvalFailed = e.approvalRequested && decided === 'APR-2'
  // The chain ended at a wrapper that returned without next(): a body run anyway breaks EXE-1's own sentence.
  const lastWrapper = e.wrappersEntered > 0 ? scenario.wrappers[e.wrappers[e.wrappersEntered - 1]!] : undefined
  const returnedWithoutNext = !e.bodyRuns && lastWrapper?.action.kind === 'made-up'
  return {
    mode: e.mode === 'parallel' ? 'MODE-1' : e.modeRefused ? 'DEF-5' : 'MODE-2',
    finalize: !e.tool && decided === 'CODE-1' ? 'CODE-1' : 'FIN-2',
    entry: e.endedAtEntry ?? decided,
    pre: 'PRE-1',
    approval: e.approvalRequested ? 'APR-1' : decided,
    approvalRequest: 'APR-1',
    guards: approvalFailed ? 'APR-2' : e.guardsEntered > 0 && e.approvalRequested ? 'APR-3' : 'GRD-1',
    guardsTooEarly: decided,
    ...(decider ? { guardDecider: decider.verdict.kind === 'throws' ? 'GRD-3' : 'GRD-1' } : {}),
    guardsBypassed: 'APR-3',
    wrappers: 'EXE-1',
    // A body run on arguments DEF-5 refuses is DEF-5's, whatever post-execute or the finalizer made of the outcome.
    body: e.bodyRuns || returnedWithoutNext ? 'EXE-1' : e.bodyRefused ? 'DEF-5' : decided,
    post: 'PST-1',
    postBypassed: decided,
    observers: 'RES-1',
    observersAfterThrow: 'RES-4',
    abortedSuccess: e.bodyRuns ? 'CAN-3' : 'CAN-2',
    outcome: outcomeClauses(e.outcome),
  }
}

function outcomeClauses(outcome: PredictedOutcome): OutcomeClauses {
  const clause = outcome.clause
  return {
    // Content and meta are filed under the stage that set them, whatever decided the outcome's kind.
    meta: outcome.metaClause ?? 'OUT-2',
    contexts: clause === 'FIN-4' ? 'FIN-3' : 'CTX-1',
    contextsAfterFinalizer: 'FIN-3',
    content: outcome.contentClause ?? 'FIN-3',
    concludes: 'CTX-2',
    thrownText: 'OUT-3',
  }
}
