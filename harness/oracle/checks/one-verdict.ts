/**
 * One fault, one verdict: where a first broken rule lets everything after it happen, the checks
 * keyed on what it let happen are void, and only the first rule's clause stands — a call that
 * should have ended at entry (IN-2, CAN-1, CODE-1, CODE-5), a wrapper's second next() (PRE-8,
 * never EXE-1's or EXE-4's), a hook's write on the execution (IN-1, RES-2) or on a result it was
 * handed (PST-1, FIN-3, RES-2), a hang after such a write.
 */
import type { Trace } from '../../scenario/trace.js'
import type { Scenario } from '../../scenario/types.js'
import type { Expected } from '../predict.js'
import { stageEvents, type CallView, type Finding } from './call-view.js'
import { resultClause } from './immutability.js'

/** Clauses that end a call before any policy runs: everything after them is their echo. */
const ENDS_AT_ENTRY = new Set(['IN-2', 'CAN-1', 'CODE-1', 'CODE-5'])

/** When a call that should have ended at entry went on, only that entry clause stands. */
export function rootOnly(e: Expected, list: Finding[]): Finding[] {
  const root = e.clauseOf.entry
  if (!ENDS_AT_ENTRY.has(root) || !list.some((x) => x.clause === root)) return list
  return list.filter((x) => x.clause === root)
}

/** Whether a wrapper that calls next() twice was entered: what its chain ran is PRE-8's case (S), not EXE-1's or EXE-4's. */
export function secondNextCalled(scenario: Scenario, trace: Trace, callId: string): boolean {
  return stageEvents(trace, callId).some((x) => x.stage === 'wrapper' && scenario.wrappers[x.index]?.action.kind === 'next-twice')
}

/** A call's findings without EXE-1's and EXE-4's once a wrapper called next() twice (EXE-1's parenthesis). */
export function voidAfterSecondNext(view: CallView, list: Finding[]): Finding[] {
  return secondNextCalled(view.scenario, view.trace, view.callId) ? list.filter((x) => x.clause !== 'EXE-1' && x.clause !== 'EXE-4') : list
}

/**
 * What a wrapper's second next() did to the chain below it, against the model's single run:
 * nothing; ran the same stages again ('reran': the body deferred its contexts twice); or ran
 * other stages ('diverged': the outcome is another run's, an inner wrapper skipped or the body
 * run after a made-up result). Either way PRE-8's (S): the checks keyed on that run are void.
 * Only stages entered while such a wrapper was still open count: one run after it left (a
 * registry retrying the body itself) is no second next()'s doing.
 */
export function secondNextEffect(view: CallView): 'none' | 'reran' | 'diverged' {
  const { e } = view
  const expected = new Set([...e.wrappers.slice(0, e.wrappersEntered).map((i) => `wrapper${i}`), ...(e.bodyRuns ? ['body0'] : [])])
  const seen = new Set<string>()
  let effect: 'none' | 'reran' | 'diverged' = 'none'
  for (const { key, inside } of chainEntries(view)) {
    const extra = !expected.has(key) || seen.has(key)
    seen.add(key)
    if (!extra) continue
    if (!inside) return 'none'
    if (!expected.has(key)) effect = 'diverged'
    else if (effect === 'none') effect = 'reran'
  }
  return effect
}

/** The call's wrapper and body entries, each marked when a wrapper calling next() twice was open around it. */
function chainEntries({ scenario, trace, callId }: CallView): { key: string; inside: boolean }[] {
  const twice = (index: number) => scenario.wrappers[index]?.action.kind === 'next-twice'
  const out: { key: string; inside: boolean }[] = []
  let open = 0
  for (const x of trace.events) {
    if ((x.ev !== 'enter' && x.ev !== 'leave') || x.call !== callId || (x.stage !== 'wrapper' && x.stage !== 'body')) continue
    const nextTwice = x.stage === 'wrapper' && twice(x.index)
    if (x.ev === 'leave') open -= nextTwice ? 1 : 0
    else {
      out.push({ key: `${x.stage}${x.index}`, inside: open > 0 })
      open += nextTwice ? 1 : 0
    }
  }
  return out
}

/** Whether a hook changed the execution anywhere in the case (a write that took effect, IN-1). */
export function executionChanged(trace: Trace): boolean {
  return trace.events.some(
    (x) => (x.ev === 'tamper' && x.changed.length > 0) || (x.ev === 'attack' && x.target === 'exec' && x.changed.length > 0),
  )
}

/**
 * The clauses of results a hook managed to change (PST-1, FIN-3, RES-2 by stage). A post-execute
 * listener that flipped the `isError` of the result it was handed tried to resurrect it: PST-2 too.
 */
function resultChangedClauses(trace: Trace): Set<string> {
  const clauses = trace.events.flatMap((x) => {
    if (x.ev !== 'attack' || x.target !== 'result' || x.changed.length === 0) return []
    return x.stage === 'post' && x.changed.includes('isError') ? [resultClause[x.stage], 'PST-2'] : [resultClause[x.stage]]
  })
  return new Set(clauses.filter((c): c is string => c !== undefined))
}

/**
 * After the execution was changed, only its own clauses stand; after a hook changed a result it
 * was handed, only the clause of that stage's frozen result stands.
 */
export function voidAfterTamper(out: Finding[], trace: Trace): Finding[] {
  if (executionChanged(trace)) return out.filter((x) => x.clause === 'IN-1' || x.clause === 'RES-2')
  const changed = resultChangedClauses(trace)
  return changed.size === 0 ? out : out.filter((x) => changed.has(x.clause))
}
