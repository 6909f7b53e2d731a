/**
 * CTX-1 for a nested call: "Contexts passed to `deferContext` during the call appear, in order, in
 * the outcome's `additionalContexts`". A body's nested call is a call of its own: what the inner
 * body defers is the inner outcome's, on success and on a tool error alike. A registry that sends
 * a nested call's contexts up to the enclosing execution publishes the inner outcome without them.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { JsonValue, ToolExecutionResult, ToolRunContext } from '../harness/contract/spec.js'
import { deferTwoNotes, unlessTwoNotes } from './ctx-two-notes.js'

type Inner = 'succeeds' | 'throws'

export interface NestedContextsCase {
  /** What the inner body does after deferring its contexts, a registry each. */
  inner: Inner[]
}

const story = (c: NestedContextsCase): string[] => [
  'tool outer: its body calls tool inner as a nested call (parent: its own token) and returns { nested: true }',
  `in a registry each, tool inner whose body defers "inner note 1" and "inner note 2", then ${c.inner.join(', then one whose body ')}`,
  'the nested outcome carries both notes, in order',
]

export const nestedContexts = custom(
  'CTX-1', 'contexts a nested call\'s body defers appear in the nested outcome',
  fc.record({ inner: fc.shuffledSubarray<Inner>(['succeeds', 'throws'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const inner of c.inner) {
      const registry = await ctx.registry()
      registry.register(liveTool('inner', {
        execute: async (_args: JsonValue, exec: ToolRunContext) => {
          deferTwoNotes(exec, 'inner ')
          if (inner === 'throws') throw new Error('the inner tool failed')
          return { inner: true }
        },
      }))
      let nested: ToolExecutionResult | undefined
      registry.register(liveTool('outer', {
        execute: async (_args: JsonValue, exec: ToolRunContext) => {
          nested = await registry.execute(input('inner', {}, { callId: 'x-inner', parent: exec.token as never }))
          return { nested: true }
        },
      }))
      await registry.execute(input('outer', {}, { callId: 'x-outer' }))
      if (!nested) return ctx.fail('the nested call to inner never resolved')
      const texts = unlessTwoNotes(nested, 'inner ')
      if (texts !== undefined) return ctx.fail(`a nested call whose body ${inner} after deferring two notes carried contexts ${texts}`)
    }
  },
)
