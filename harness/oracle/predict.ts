/**
 * An independent model of SPEC.md's routing table: from a scenario alone it predicts, for one
 * call, which stages must run and how often, and the outcome's kind and code. Every prediction
 * carries the clause that makes it so; the judge names that clause when the trace disagrees.
 * Where abort timing matters, the judge reads the trace; the model says what holds either way.
 * The rows live in model/ (route, execution, post-execute, finalize); this is their front door.
 */
import type { Scenario } from '../scenario/types.js'
import { tagClauses } from './model/clause-tags.js'
import { route } from './model/route.js'
import { ALL_SHAPE_SOURCES, shapeLatitude } from './model/shape-latitude.js'
import type { Expected, PredictOptions, ShapeSource } from './model/types.js'

export type { Expected, ExpectationClauses, OutcomeClauses, PredictedOutcome, PredictOptions, ShapeSource } from './model/types.js'
export { isContent } from './model/content.js'
export { visibleTool } from './model/route.js'

export function predict(scenario: Scenario, callIndex: number, options: PredictOptions = {}): Expected {
  return tagClauses(scenario, route(scenario, callIndex, options, shapeLatitude(options.lax)))
}

/** The shape sources a call meets, on the strict branch or the lax one. */
export function shapeSources(scenario: Scenario, callIndex: number): ShapeSource[] {
  const met = new Set<ShapeSource>()
  for (const lax of [new Set<ShapeSource>(), new Set<ShapeSource>(ALL_SHAPE_SOURCES)]) {
    const shapes = shapeLatitude(lax)
    route(scenario, callIndex, { lax }, shapes)
    for (const source of shapes.met) met.add(source)
  }
  return [...met]
}
