/**
 * OUT-5's latitude for one prediction: which shape sources are predicted on the lax branch
 * (misshapen lossless output published as it is), and which sources the call met at all. A fresh
 * one is made for every prediction and handed down explicitly.
 */
import type { PredictedOutcome, ShapeSource } from './types.js'

export const ALL_SHAPE_SOURCES: readonly ShapeSource[] = ['render', 'finalize', 'post-content', 'contexts']

export interface ShapeLatitude {
  /** The call met misshapen lossless output from `source`: whether it is published as it is (lax). */
  misshapen(source: ShapeSource): boolean
  /** The sources met so far. */
  readonly met: ReadonlySet<ShapeSource>
}

export function shapeLatitude(lax: ReadonlySet<ShapeSource> = new Set()): ShapeLatitude {
  const met = new Set<ShapeSource>()
  return {
    misshapen: (source) => (met.add(source), lax.has(source)),
    met,
  }
}

/** The strict branch: INVALID_TOOL_OUTPUT, a pipeline error that may drop the contexts (CTX-1). */
export const outOfShape = (contexts: unknown[] | undefined): PredictedOutcome => ({
  isError: true,
  code: 'INVALID_TOOL_OUTPUT',
  clause: 'OUT-5',
  ...(contexts ? { contexts, contextsAlt: [[]] } : {}),
})
