/**
 * PRE-1 across registrations: listeners run in the order of the registrations in force. Three
 * delegating listeners are registered; step by step one is disposed (and at once registered again,
 * the same function, where the step says so), or, disposed before, registered again. One call then
 * runs them in the order of their registrations in force: a listener registered again comes after
 * the ones registered while it was away.
 */
import fc from 'fast-check'
import type { PreExecuteListener } from '../harness/contract/adapter.js'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

const NAMES = ['audit', 'quota', 'trace'] as const

interface Step { listener: number; again: boolean }
type Change = 'dispose' | 'register'

/**
 * The steps applied in order, `apply` told of each change: a registered listener is disposed (and
 * registered again at once if `again`), a disposed one registered again. Returns each step in words
 * and the registrations in force at the end.
 */
function run(steps: readonly Step[], apply: (change: Change, name: string) => void = () => {}): { words: string[]; order: string[] } {
  const order: string[] = [...NAMES]
  const words = steps.map(({ listener, again }) => {
    const name = NAMES[listener]!
    const registered = order.includes(name)
    const changes: Change[] = registered ? (again ? ['dispose', 'register'] : ['dispose']) : ['register']
    for (const change of changes) {
      apply(change, name)
      if (change === 'dispose') order.splice(order.indexOf(name), 1)
      else order.push(name)
    }
    if (changes.length === 2) return `${name} is disposed and at once registered again, the same function`
    return `${name} is ${registered ? 'disposed' : 'registered again, the same function'}`
  })
  return { words, order }
}

export const registeredAgain = custom(
  'PRE-1',
  'listeners run in the order of the registrations in force: one disposed and registered again comes after those registered meanwhile',
  fc.array(fc.record({ listener: fc.nat(NAMES.length - 1), again: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  (steps) => [
    'tool target; pre-execute listeners audit, quota and trace, each noting its name and delegating, registered in that order',
    ...run(steps).words,
    'one call to target',
  ],
  async (ctx, steps) => {
    const registry = await ctx.registry()
    registry.register(liveTool('target'))
    const ran: string[] = []
    const listeners = new Map<string, PreExecuteListener>(NAMES.map((name) => [name, (_exec, next) => (ran.push(name), next())]))
    const disposers = new Map(NAMES.map((name) => [name as string, registry.onPreExecute(listeners.get(name)!)]))
    const { order } = run(steps, (change, name) => {
      if (change === 'register') disposers.set(name, registry.onPreExecute(listeners.get(name)!))
      else disposers.get(name)!()
    })
    await ctx.scheduler.waitFor(registry.execute(input('target')))
    if (JSON.stringify(ran) === JSON.stringify(order)) return
    ctx.fail(`the listeners ran as ${JSON.stringify(ran)}, the registrations in force are ${JSON.stringify(order)}`)
  },
)
