/**
 * Where CLM-3 aborts the body's signal: already at entry, at the k-th pause() of the environment,
 * after n microtask turns, or after a few real milliseconds. Shrinks toward `entry`.
 */
import fc from 'fast-check'

export type AbortPoint = { at: 'entry' } | { at: 'pause'; index: number } | { at: 'microtasks'; count: number } | { at: 'ms'; ms: number }

export const abortPoint: fc.Arbitrary<AbortPoint> = fc.oneof(
  fc.constant<AbortPoint>({ at: 'entry' }),
  fc.record({ at: fc.constant('pause' as const), index: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ at: fc.constant('microtasks' as const), count: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ at: fc.constant('ms' as const), ms: fc.integer({ min: 0, max: 20 }) }),
)

export function describeAbortPoint(point: AbortPoint): string {
  switch (point.at) {
    case 'entry':
      return 'aborted before the call'
    case 'pause':
      return `aborted at pause() #${point.index}`
    case 'microtasks':
      return `aborted after ${point.count} microtask turns`
    case 'ms':
      return `aborted after ${point.ms} ms`
  }
}
