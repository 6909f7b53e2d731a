/**
 * GRD-1 for a guard answering as a validator does: "any return other than `undefined` denies the
 * call". An empty list or an empty object ("no violations found") is such a return: the call is
 * denied, and its body never runs.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

const ANSWERS = {
  'an empty list': () => [],
  'an empty object': () => ({}),
  'a promise of an empty list': () => Promise.resolve([]),
} as const

export interface EmptyAnswerCase {
  answer: keyof typeof ANSWERS
  /** A guard that passes is registered after it. */
  passingAfter: boolean
}

export const emptyAnswer = custom(
  'GRD-1', 'a guard answering an empty list or an empty object denies the call',
  fc.record({
    answer: fc.constantFrom<EmptyAnswerCase['answer']>('an empty list', 'an empty list', 'an empty object', 'a promise of an empty list'),
    passingAfter: fc.boolean(),
  }),
  (c) => [
    'tool target, whose body returns { ok: true }',
    `a guard that answers ${c.answer}${c.passingAfter ? ', then a guard that passes' : ''}`,
    'one call to target',
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    let bodyRan = false
    registry.register(liveTool('target', { execute: async () => ((bodyRan = true), { ok: true }) }))
    registry.guard(ANSWERS[c.answer] as never)
    if (c.passingAfter) registry.guard(() => undefined)
    const result = await registry.execute(input('target'))
    if (bodyRan) ctx.fail(`the body ran although a guard answered ${c.answer}`)
    else if (!result.isError) ctx.fail(`the call ended as a success although a guard answered ${c.answer}`)
  },
)
