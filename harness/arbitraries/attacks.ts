/**
 * Hostile hooks: the writes a hook attempts on everything it is handed, with realistic values —
 * another registered tool's name, another agent's key, another call's callId and token, rewritten
 * arguments, `isError` flipped, `value`/`meta`/`content` swapped for values that are not lossless,
 * deletes and defineProperty (IN-1, PST-1, FIN-3, RES-2 judge what took effect).
 */
import fc from 'fast-check'
import type { Attack, AttackValue, AttackWrite, ValueDesc } from '../scenario/types.js'

const ref = (r: Extract<AttackValue, { ref: unknown }>['ref']): AttackValue => ({ ref: r })
const literal = (value: ValueDesc): AttackValue => ({ value })

const set = (path: string, to: fc.Arbitrary<AttackValue>) => to.map((t): AttackWrite => ({ op: 'set', path, to: t }))
const define = (path: string, to: fc.Arbitrary<AttackValue>) => to.map((t): AttackWrite => ({ op: 'define', path, to: t }))
const remove = (...paths: string[]) => fc.constantFrom(...paths).map((path): AttackWrite => ({ op: 'delete', path }))

const nonLossless = fc.constantFrom<ValueDesc>({ $: 'bigint' }, { $: 'undefined' }, { $: 'cycle' }, { $: 'function' }, { $: 'nan' })

/** Writes on an execution or a run context: every field IN-1 fixes at entry. */
export const execWrite: fc.Arbitrary<AttackWrite> = fc.oneof(
  set('name', fc.constant(ref('other-tool'))),
  set('callId', fc.constant(ref('other-call-id'))),
  set('token', fc.constant(ref('other-token'))),
  set('agent', fc.constant(ref('other-agent'))),
  set('arguments', fc.constantFrom(literal({ path: '/etc/passwd' }), literal({ n: 99 }))),
  set('arguments.path', fc.constant(literal('/etc/passwd'))),
  define('name', fc.constant(ref('other-tool'))),
  define('agent', fc.constant(ref('other-agent'))),
  remove('name', 'callId', 'arguments', 'agent'),
)

/** Writes on a result: its kind, value, meta, content and error (PST-1, FIN-3, RES-2). */
export const resultWrite: fc.Arbitrary<AttackWrite> = fc.oneof(
  set('isError', fc.constant(ref('flip'))),
  define('isError', fc.constant(ref('flip'))),
  set('value', fc.oneof(nonLossless.map(literal), fc.constant(literal({ hijacked: true })))),
  set('meta', nonLossless.map(literal)),
  set('content', fc.constantFrom(literal([{ type: 'text', text: 'hijacked' }]), literal('hijacked'))),
  set('content.0.text', fc.constant(literal('hijacked'))),
  set('error.message', fc.constant(literal('hijacked'))),
  set('concludesTurn', fc.constant(literal(true))),
  remove('error', 'value', 'content', 'isError'),
)

/** Writes on a decision after the hook returned it (its kind, reason, value, content). */
export const decisionWrite: fc.Arbitrary<AttackWrite> = fc.oneof(
  set('kind', fc.constantFrom(literal('allow'), literal('deny'), literal('accept'), literal('block'))),
  set('reason', fc.constant(literal('rewritten'))),
  set('value', fc.oneof(nonLossless.map(literal), fc.constant(literal(2)))),
  set('content', fc.constant(literal([{ type: 'text', text: 'rewritten' }]))),
  remove('kind', 'reason', 'feedback'),
)

/** Writes on the approval request: the tool it names, the call, the reason, the signal. */
export const requestWrite: fc.Arbitrary<AttackWrite> = fc.oneof(
  set('toolName', fc.constant(ref('other-tool'))),
  set('callId', fc.constant(ref('other-call-id'))),
  set('reason', fc.constant(literal('rewritten'))),
  remove('signal', 'toolName'),
)

const some = (write: fc.Arbitrary<AttackWrite>) => fc.array(write, { minLength: 1, maxLength: 3 })

function attackOf(parts: { exec?: boolean; result?: boolean; decision?: boolean }): fc.Arbitrary<Attack> {
  return fc
    .record({
      exec: parts.exec ? fc.option(some(execWrite), { nil: undefined }) : fc.constant(undefined),
      result: parts.result ? fc.option(some(resultWrite), { nil: undefined }) : fc.constant(undefined),
      decision: parts.decision ? fc.option(some(decisionWrite), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ exec, result, decision }) => {
      const attack: Attack = {}
      if (exec) attack.exec = exec
      if (result) attack.result = result
      if (decision) attack.decision = decision
      return attack
    })
}

/** Sometimes (1 in `freq + 1`) an attack on what the hook is handed; otherwise none. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, freq = 3) => fc.option(arbitrary, { nil: undefined, freq })

export const preAttack = sometimes(attackOf({ exec: true, decision: true }))
export const guardAttack = sometimes(attackOf({ exec: true }))
export const wrapperAttack = sometimes(attackOf({ exec: true, result: true }))
export const postAttack = sometimes(attackOf({ exec: true, result: true, decision: true }))
export const observerAttack = sometimes(attackOf({ exec: true, result: true }))
export const finalizeAttack = attackOf({ exec: true, result: true })
export const bodyAttack = some(execWrite)
export const requestAttack = sometimes(some(requestWrite))

/** Drops an undefined `attack` so a generated spec keeps only the keys it uses. */
export function withAttack<T extends object>(spec: T & { attack?: unknown }): T {
  if (spec.attack === undefined || (typeof spec.attack === 'object' && spec.attack !== null && Object.keys(spec.attack).length === 0)) {
    const { attack: _attack, ...rest } = spec
    return rest as T
  }
  return spec
}

/** A listener's writes that would turn a failure it is handed into a success (PST-1, PST-2). */
export const resurrectingWrites: AttackWrite[] = [
  { op: 'set', path: 'isError', to: { ref: 'flip' } },
  { op: 'set', path: 'value', to: { value: { ok: true } } },
  { op: 'delete', path: 'error' },
]
