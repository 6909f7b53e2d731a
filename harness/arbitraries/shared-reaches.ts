/**
 * Reaches every scenario property draws, last, whatever its clause: calls in flight at once, odd
 * thrown values, wrappers that hand next() more than a signal, bodies that are plain functions, an
 * arguments object reused across calls, a hook that disposes of itself, async projections and
 * finalizers, a nested call handed an aborted signal of its own or made for another caller,
 * values that hold one object twice, a call made again with its input object, hooks throwing a
 * TypeError or RangeError, a listener that throws once next() has answered, and values frozen at their root only.
 * Each changes one case in four (a call made again, one in three) and leaves the rest of a case as it was drawn.
 */
import fc from 'fast-check'
import { neverWaits, type BodyStep, type CallSpec, type DispatchStep, type Scenario } from '../scenario/types.js'
import { nowAndThen, nowAndThenWith } from './now-and-then.js'
import { builtInThrown, withBuiltInThrows, withOddThrows } from './odd-throws.js'
import { SHARED_OUTPUTS, sharedSubtrees } from './shared-subtrees.js'
import { frozenRoots } from './frozen-roots.js'

/**
 * The calls in flight at once (the scheduler picks the interleaving), a lone call joined by a twin:
 * state one call leaves for another — an outbox, a pending ask, a cache — is then shared between
 * calls that overlap. Calls handed one callId or one arguments object, or met by a hook that
 * disposes of itself, stay one after another.
 */
export function inFlightAtOnce(s: Scenario): Scenario {
  if (s.concurrent || s.calls.some((c) => c.sameCallIdAs !== undefined || c.reusesArgsObject) || disposesAHook(s)) return s
  const calls = s.calls.length === 1 ? [s.calls[0]!, s.calls[0]!] : s.calls
  return { ...s, calls, concurrent: true }
}

/** Bodies that never wait written as plain functions, not async ones: a throw is then synchronous (CTX-1, IN-4). */
export function plainBodies(s: Scenario): Scenario {
  if (!s.tools.some((t) => neverWaits(t.body))) return s
  return { ...s, tools: s.tools.map((t) => (neverWaits(t.body) ? { ...t, body: { ...t.body, plain: true } } : t)) }
}

/** Calls one after another, none dispatching another: which call ran before which is the order of the list. */
const oneAtATime = (s: Scenario) =>
  !s.concurrent && s.calls.every((c) => !c.program) && s.tools.every((t) => t.body.steps.every((step) => step.kind !== 'dispatch'))

/** The caller hands each call the arguments object of the call before, changed in place (IN-1: a snapshot per call). */
export function argumentsObjectReused(s: Scenario): Scenario {
  if (s.calls.length < 2 || !oneAtATime(s)) return s
  return { ...s, calls: s.calls.map((call, i) => (i === 0 ? call : { ...call, reusesArgsObject: true })) }
}

type HookKind = 'pre' | 'guards' | 'wrappers' | 'post'
const HOOK_KINDS: HookKind[] = ['pre', 'guards', 'wrappers', 'post']

/**
 * One hook (the `pick`-th of the pre-execute listeners, guards, wrappers and post-execute
 * listeners, in that order) disposes of itself when first entered: the hooks after it still run in
 * that call, and no later call runs it.
 */
export function hookDisposingSelf(s: Scenario, pick: number): Scenario {
  const hooks = HOOK_KINDS.flatMap((kind) => s[kind].map((_hook, at) => ({ kind, at })))
  const chosen = hooks[pick % Math.max(hooks.length, 1)]
  if (!chosen || !oneAtATime(s)) return s
  const list = s[chosen.kind] as { disposesSelf?: true }[]
  return { ...s, [chosen.kind]: list.map((hook, i) => (i === chosen.at ? { ...hook, disposesSelf: true } : hook)) }
}

const disposesAHook = (s: Scenario) => [s.pre, s.guards, s.wrappers, s.post, s.observers].some((list) => list.some((hook) => hook.disposesSelf))

/** A wrapper that replaces the signal hands next() arguments, a name, a token… too (EXE-2: only the signal counts). */
const handingMore = (s: Scenario): Scenario =>
  (s.wrappers.some((w) => w.action.kind === 'replace-signal') ? { ...s, overridesMore: true } : s)

const THROWING_CALLBACKS = ['render', 'meta', 'finalize'] as const

/**
 * The `pick`-th projection or finalizer that throws written as an async function: the throw comes
 * as a rejected promise (OUT-2, FIN-4). The others still throw as they are called.
 */
export function asyncThrows(s: Scenario, pick: number): Scenario {
  const throwing = s.tools.flatMap((t, tool) => THROWING_CALLBACKS.flatMap((key) => (t[key]?.kind === 'throws' ? [{ tool, key }] : [])))
  const chosen = throwing[pick % Math.max(throwing.length, 1)]
  if (!chosen) return s
  const tools = s.tools.map((t, i) => (i === chosen.tool ? { ...t, [chosen.key]: { ...t[chosen.key], async: true } } : t))
  return { ...s, tools }
}

/** The `pick`-th nested call the case's bodies dispatch is handed a signal of its own, already aborted (CAN-1). */
export const nestedSignalAborted = (s: Scenario, pick: number): Scenario => changedDispatch(s, pick, { abortedSignal: true })

/** The case with `change` made to the `pick`-th dispatch step of its tools' bodies. */
function changedDispatch(s: Scenario, pick: number, change: Partial<DispatchStep>): Scenario {
  const dispatches = s.tools.flatMap((t, tool) => t.body.steps.flatMap((step, at) => (step.kind === 'dispatch' ? [{ tool, at }] : [])))
  const chosen = dispatches[pick % Math.max(dispatches.length, 1)]
  if (!chosen) return s
  const changed = (step: BodyStep, at: number): BodyStep => (at === chosen.at && step.kind === 'dispatch' ? { ...step, ...change } : step)
  const tools = s.tools.map((t, i) => (i === chosen.tool ? { ...t, body: { ...t.body, steps: t.body.steps.map(changed) } } : t))
  return { ...s, tools }
}

const NESTED_CALLERS = ['none', 'A', 'B'] as const

/** The `pick`-th nested call the case's bodies dispatch is made for another caller: none, agent A or agent B (PRE-7, SCP-1). */
export function nestedCallerVaries(s: Scenario, [pick, caller]: [number, number]): Scenario {
  return changedDispatch(s, pick, { agent: NESTED_CALLERS[caller % NESTED_CALLERS.length]! })
}

/**
 * The `pick`-th pre- or post-execute listener that delegates calls next() and then throws (its audit
 * write fails once the listeners inside have answered): the call ends in error all the same (PRE-4, PST-3).
 */
export function throwingAfterNext(s: Scenario, pick: number): Scenario {
  const delegating = (['pre', 'post'] as const).flatMap((kind) => s[kind].flatMap((hook, at) => (hook.decision.kind === 'delegate' ? [{ kind, at }] : [])))
  const chosen = delegating[pick % Math.max(delegating.length, 1)]
  if (!chosen) return s
  const list = s[chosen.kind].map((hook, i) => (i === chosen.at ? { ...hook, decision: { kind: 'throws-after-next' as const } } : hook))
  return { ...s, [chosen.kind]: list }
}

const CALLER_MOVES: (keyof CallSpec)[] = [
  'abortAtEntry', 'abortScheduled', 'abortAsBodySettles', 'abortWhilePostRuns', 'abortReason', 'callerChangesArgs', 'fakeParent',
  'callerToken', 'malformed', 'lookalikeAgent', 'reusesArgsObject', 'program',
]

/**
 * A call made again, last, with its callId, and with `sameInput` handed the very input object it
 * was handed: a second call is a call of its own, whatever a registry memoized from the first (a
 * token, a finalized card, a result). The first call whose caller does nothing more than call (no
 * abort, no change to its arguments…), where the case's calls run one after another.
 */
export function callAgain(s: Scenario, sameInput: boolean): Scenario {
  const again = s.calls.findIndex((c) => c.sameCallIdAs === undefined && CALLER_MOVES.every((key) => c[key] === undefined))
  // A later call handed an earlier call's arguments object changes it in place: the call would not be made again as it was.
  if (again < 0 || s.concurrent || s.calls.some((c) => c.program || c.reusesArgsObject)) return s
  const call = s.calls[again]!
  return { ...s, calls: [...s.calls, { ...call, sameCallIdAs: again, ...(sameInput ? { reusesInput: true as const } : {}) }] }
}

export const withSharedReaches = (arbitrary: fc.Arbitrary<Scenario>): fc.Arbitrary<Scenario> =>
  arbitrary
    .chain(nowAndThen(inFlightAtOnce))
    .chain(withOddThrows())
    .chain(nowAndThen(handingMore))
    .chain(nowAndThen(plainBodies))
    .chain(nowAndThen(argumentsObjectReused))
    .chain(nowAndThenWith(fc.nat(7), hookDisposingSelf))
    .chain(nowAndThenWith(fc.nat(3), asyncThrows))
    .chain(nowAndThenWith(fc.nat(3), nestedSignalAborted))
    .chain(nowAndThenWith(fc.tuple(fc.nat(3), fc.nat(2)), nestedCallerVaries))
    .chain(nowAndThenWith(fc.constantFrom(...SHARED_OUTPUTS), sharedSubtrees))
    .chain(nowAndThenWith(fc.constantFrom(true, true, false), callAgain, 3))
    .chain(nowAndThenWith(builtInThrown, withBuiltInThrows))
    .chain(nowAndThenWith(fc.nat(3), throwingAfterNext))
    .chain(nowAndThen(frozenRoots))

/**
 * For a clause of one kind of hook: the first hook of that kind disposes of itself when first
 * entered, and then does `acts` (a listener delegates, a wrapper calls next(), a guard passes) so
 * the hooks after it are reached in that call, as they must be; a lone hook is followed by itself.
 */
export const firstDisposingSelf = <K extends HookKind>(kind: K, acts: Partial<Scenario[K][number]>) => (s: Scenario): Scenario => {
  const list = s[kind] as { disposesSelf?: true }[]
  if (list.length === 0 || !oneAtATime(s)) return s
  const hooks = list.length === 1 ? [list[0]!, list[0]!] : list
  return { ...s, [kind]: hooks.map((hook, i) => (i === 0 ? { ...hook, ...acts, disposesSelf: true } : hook)) }
}

/** The same as `argumentsObjectReused`, the second call's arguments other than the first's: a kept snapshot then shows (IN-1). */
export function argumentsObjectChanged(s: Scenario): Scenario {
  const [first, second] = s.calls
  if (!first || !oneAtATime(s) || typeof first.args !== 'object' || first.args === null || Array.isArray(first.args) || '$' in first.args) return s
  const args = { ...first.args, changedByTheCaller: Object.keys(first.args).length }
  return argumentsObjectReused({ ...s, calls: [first, { ...(second ?? first), args }, ...s.calls.slice(2)] })
}
