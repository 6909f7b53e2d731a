/**
 * GRD-1 after a guard's disposer was used again: "Guards run after the waterfall's final `allow` and
 * before dispatch; any return other than `undefined` denies the call." A disposer unregisters its
 * own guard; SPEC does not say what a second call does (it may throw, or do nothing), but it never
 * unregisters another guard: the guards still registered run, and one that denies ends the call.
 */
import fc from 'fast-check'
import { times } from '../harness/property/vocabulary.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

export interface DisposedGuardCase {
  /** Guards that pass, registered first; one of them is disposed. */
  passing: number
  /** Which of the passing guards is disposed. */
  disposed: number
  /** How often its disposer is called. */
  calls: number
  /** A guard that denies, registered before the passing ones instead of after them. */
  denyingFirst: boolean
}

/** Few guards, the denying one mostly last: a disposer that removes by position reaches it soonest there. */
const disposedGuardCase: fc.Arbitrary<DisposedGuardCase> = fc
  .record({
    passing: fc.constantFrom(1, 1, 2, 3),
    disposed: fc.nat(2),
    calls: fc.integer({ min: 2, max: 3 }),
    denyingFirst: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  })
  .map((c) => ({ ...c, disposed: c.disposed % c.passing }))

function guardNames(c: DisposedGuardCase): string[] {
  const passing = Array.from({ length: c.passing }, (_, i) => `passing guard #${i}`)
  return c.denyingFirst ? ['the denying guard', ...passing] : [...passing, 'the denying guard']
}

export const disposedGuardAgain = custom(
  'GRD-1',
  'a guard disposer used again never unregisters another guard: the denying guard still registered ends the call',
  disposedGuardCase,
  (c) => [
    'tool target',
    `guards registered in order: ${guardNames(c).join(', ')}`,
    `the disposer of passing guard #${c.disposed} called ${times(c.calls)}`,
    'one call to target',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    let bodyRan = false
    registry.register(liveTool('target', { execute: async () => ((bodyRan = true), { ok: true }) }))
    const deny = () => void registry.guard(() => 'denied by the guard still registered')
    if (c.denyingFirst) deny()
    const disposers = Array.from({ length: c.passing }, () => registry.guard(() => undefined))
    if (!c.denyingFirst) deny()
    for (let i = 0; i < c.calls; i++) {
      try {
        disposers[c.disposed]!()
      } catch {
        // a disposer used again may throw: judged by the call, not by the throw
      }
    }
    const result = await registry.execute(input('target'))
    if (bodyRan) ctx.fail(`the body ran: a guard that denies was registered and never disposed (a disposer called ${times(c.calls)})`)
    else if (!result.isError) ctx.fail('the call is a success although a guard that denies was registered and never disposed')
  },
)
