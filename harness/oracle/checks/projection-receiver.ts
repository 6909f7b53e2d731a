/**
 * OUT-2: content is `output.render(args, value)` and meta `output.presentationMeta(args, value)`,
 * method calls on the tool's output, so a projection that reads `this` (a class-based output, a
 * helper beside the projection) finds its output there, or a copy carrying the same projection.
 */
import type { Trace } from '../../scenario/trace.js'
import { reporter, type Finding } from './call-view.js'

export function projectionsCalledOnOutput(trace: Trace, out: Finding[]): void {
  const detached = (trace.projected ?? []).find((p) => p.detached)
  if (!detached) return
  reporter('projection', out)('OUT-2', 'projection-detached', `a projection of ${detached.tool} was called with a this other than its output`)
}
