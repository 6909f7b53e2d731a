/**
 * EXE-4 for a fallback: "A success a wrapper makes up is validated against the tool's
 * `output.schema` and rendered like a body's value" — also when `next()` gave the wrapper an error.
 * No resurrection is post-execute's rule (PST-2), not a wrapper's: a wrapper that answers a failed
 * body with a cached or default success has that success published.
 */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { safeJson } from '../harness/property/vocabulary.js'
import type { ExecuteWrapper } from '../harness/contract/adapter.js'

type Failure = 'throws an Error' | 'rejects with a string'

export interface FallbackCase {
  /** How the body fails, a registry each. */
  failures: Failure[]
}

const story = (c: FallbackCase): string[] => [
  `in a registry each, tool target whose body ${c.failures.join(', then one whose body ')}`,
  'a wrapper that awaits next() and, given an error (or a rejection), returns a success of its own: { fallback: true }',
  'one call to target: the outcome is that success',
]

export const fallbackSuccess = custom(
  'EXE-4', 'a success a wrapper makes up once next() gave it an error is published',
  fc.record({ failures: fc.shuffledSubarray<Failure>(['throws an Error', 'rejects with a string'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    for (const failure of c.failures) {
      const registry = await ctx.registry()
      registry.register(liveTool('target', {
        execute: async () => {
          if (failure === 'throws an Error') throw new Error('the tool failed')
          return Promise.reject('the tool failed')
        },
      }))
      const fallback: ExecuteWrapper = async (_exec, next) => {
        // A registry whose next() rejects for a failed body is answered the same way.
        const result = await next().catch(() => undefined)
        return result && !result.isError ? result : { isError: false, value: { fallback: true }, content: [{ type: 'text', text: '{"fallback":true}' }] }
      }
      registry.onExecute(fallback)
      const result = await registry.execute(input('target', {}, { callId: 'x-fallback' }))
      const value = result.isError ? undefined : safeJson(result.value)
      if (value !== safeJson({ fallback: true })) {
        return ctx.fail(`a body that ${failure}, answered by a wrapper's fallback success, gave ${
          result.isError ? `an error coded ${String(codeOf(registry, result))}` : `the value ${value}`}`)
      }
    }
  },
)
