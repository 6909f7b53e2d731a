/** Helpers shared by the outcome-side tests (OUT, META, PST, FIN, RES, routing). */
import type { ContentBlock, JsonValue, ToolExecutionResult } from '../../harness/contract/spec.js'

/** An output definition whose value is `{ n: number }`, rendered as `n=<n>`. */
export const numberOutput = {
  schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
  render: (_args: JsonValue, value: JsonValue): ContentBlock[] => [{ type: 'text', text: `n=${(value as { n: number }).n}` }],
}

/** Treats a deliberately broken value as JSON for the type checker. */
export const asJson = (value: unknown): JsonValue => value as JsonValue

/** Fresh non-lossless values, one per kind the SPEC names (META-1, OUT-1). */
export function nonLossless(): [string, unknown][] {
  const cycle: Record<string, unknown> = {}
  cycle.self = cycle
  return [
    ['a BigInt', 1n],
    ['a cycle', cycle],
    ['a function', () => 1],
    ['undefined', undefined],
    ['NaN', NaN],
    ['-0', -0],
    ['a Map', new Map([['k', 1]])],
    ['a class instance', new (class Point {
      x = 1
    })()],
    ['a throwing getter', Object.defineProperty({}, 'g', { enumerable: true, get: () => { throw new Error('getter') } })],
  ]
}

/** A text block carrying `bad` under an extra key, so the block itself is not lossless JSON. */
export const badBlock = (bad: unknown): ContentBlock => ({ type: 'text', text: 'x', extra: bad }) as unknown as ContentBlock

/** Recursively checks that every object reachable from `value` is frozen. */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (!Object.isFrozen(value)) return false
  return Object.values(value).every(isDeepFrozen)
}

export const codeOf = (result: ToolExecutionResult): string | undefined => (result.isError ? result.error.code : undefined)
