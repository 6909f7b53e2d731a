/**
 * A scenario's per-tool decisions on a live registry: through the library's own per-tool setting
 * (`decideTool`) where the adapter declares the tool-decisions seam, else as one pre-execute
 * listener registered after all others, which decides the calls to the names it lists and delegates
 * every other call. The two are the same contract: the oracle does not tell them apart.
 */
import type { RegistryUnderTest } from '../contract/adapter.js'
import type { ToolExecution } from '../contract/spec.js'
import type { ToolDecisionSpec } from './types.js'
import { buildValue } from './values.js'

/** The first decision listed for each name (a name is listed once; a repeat is ignored). */
export function decisionsByName(decisions: readonly ToolDecisionSpec[]): Map<string, ToolDecisionSpec['decision']> {
  const byName = new Map<string, ToolDecisionSpec['decision']>()
  for (const { tool, decision } of decisions) if (!byName.has(tool)) byName.set(tool, decision)
  return byName
}

export function installToolDecisions(registry: RegistryUnderTest, decisions: readonly ToolDecisionSpec[], native: boolean): void {
  const byName = decisionsByName(decisions)
  if (byName.size === 0) return
  if (native && registry.decideTool) {
    for (const [tool, decision] of byName) registry.decideTool(tool, buildValue(decision))
    return
  }
  // A listener answers with a Promise (PreExecuteListener), as the scenario's own listeners do.
  registry.onPreExecute(async (exec: ToolExecution, next) => {
    const decision = byName.get(exec.name)
    return decision === undefined ? next() : (buildValue(decision) as never)
  })
}
