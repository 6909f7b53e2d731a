/**
 * Concurrency classification, exclusive by default. Honours MODE-1 (parallel only when the visible
 * tool's classifier returns exactly `true`) and MODE-2 (everything else is exclusive: no or a
 * non-function classifier, a throw, any other return, arguments that are not lossless JSON, an
 * unknown or hidden tool; executionMode itself never throws).
 */
import type { ToolExecutionMode } from '../harness/contract/spec.js'
import { deepFreeze, snapshotJson } from './json/lossless.js'
import { swallowIfThenable } from './pipeline/abort.js'
import type { RegistryContext } from './pipeline/call-state.js'

export const PARALLEL: ToolExecutionMode = Object.freeze({ kind: 'parallel' })
export const EXCLUSIVE: ToolExecutionMode = Object.freeze({ kind: 'exclusive' })

export function executionMode(registry: RegistryContext, input: unknown): ToolExecutionMode {
  try {
    if (typeof input !== 'object' || input === null) return EXCLUSIVE
    const { name, arguments: args, agent, parent } = input as Record<string, unknown>
    if (typeof name !== 'string') return EXCLUSIVE
    const tool = registry.stages.resolveTool(registry, name, agent, parent)
    if (!tool || typeof tool.isConcurrencySafe !== 'function') return EXCLUSIVE
    const snap = snapshotJson(args)
    if (!snap.ok) return EXCLUSIVE
    const verdict: unknown = tool.isConcurrencySafe.call(tool.source, deepFreeze(snap.value))
    swallowIfThenable(verdict)
    return verdict === true ? PARALLEL : EXCLUSIVE
  } catch {
    return EXCLUSIVE
  }
}
