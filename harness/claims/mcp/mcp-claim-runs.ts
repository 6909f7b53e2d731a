/**
 * Each MCP claim as a fast-check run (run-claim.ts): its property over [earlier calls, the case],
 * the cases to try first (the schema's edges, with no earlier call), how a shrunk case is written
 * as JSON, and how a saved case becomes the property's value again. A replay runs its case a few
 * times: a race may not show every time.
 */
import type { JsonValue } from '../../contract/spec.js'
import type { ClaimRun } from '../run-claim.js'
import { Stalls } from '../settle-within.js'
import type { McpClaimId } from '../types.js'
import { callArbitrary } from './call-arbitrary.js'
import { readOnlyProperty } from './clm5-read-only.js'
import { concurrencyProperty, concurrentCalls } from './clm6-concurrency.js'
import { idempotentProperty } from './clm7-idempotent.js'
import { additiveProperty } from './clm8-additive.js'
import { withEarlierCalls } from './earlier-calls.js'
import { mcpArgumentsFor } from './mcp-arguments.js'
import type { McpTarget, Servers } from './target.js'
import type { McpCall, McpTool } from './types.js'

/** CLM-6's tools: the read-only ones whose answers can be compared (not those that answered differently twice in a row). */
export function comparableReadOnly(target: McpTarget): McpTool[] {
  return target.tools.filter((t) => t.hints.readOnlyHint === true && !target.observers.unstable.includes(t.name))
}

/** What a replay needs of a saved counterexample. */
export interface SavedMcpCase {
  case: JsonValue
}

const REPLAY_ATTEMPTS = 3

type Case = { earlier?: McpCall[]; arguments?: JsonValue; calls?: McpCall[] }

/** `tool` is the tool under test (CLM-5, -7, -8); CLM-6 draws calls from every read-only tool. */
export function mcpClaimRun(id: McpClaimId, target: McpTarget, servers: Servers, tool: McpTool | undefined, saved?: SavedMcpCase): ClaimRun<unknown[]> {
  const stalls = new Stalls()
  const replay = saved ? { examples: Array.from({ length: REPLAY_ATTEMPTS }, () => [valueOf(id, saved.case as Case)]), replay: true } : undefined
  if (id === 'CLM-6') {
    const calls = concurrentCalls(callArbitrary(comparableReadOnly(target), target.words)!)
    return {
      id,
      property: concurrencyProperty(servers, withEarlierCalls(calls, target), stalls),
      stalls,
      describeCase: ([pair]) => ({ earlier: earlierOf(pair), calls: (pair as [McpCall[], McpCall[]])[1] as unknown as JsonValue }),
      ...replay,
    }
  }
  const args = mcpArgumentsFor(tool!.name, tool!.inputSchema, target.words)
  const cases = withEarlierCalls(args.arbitrary, target, tool)
  const property = { 'CLM-5': readOnlyProperty, 'CLM-7': idempotentProperty, 'CLM-8': additiveProperty }[id](servers, tool!, args, cases, stalls)
  return {
    id,
    property,
    stalls,
    examples: args.edges.map((edge) => [[[], edge]]),
    describeCase: ([pair]) => ({ earlier: earlierOf(pair), arguments: (pair as [McpCall[], JsonValue])[1] }),
    ...replay,
  }
}

const earlierOf = (pair: unknown) => (pair as [McpCall[], unknown])[0] as unknown as JsonValue

function valueOf(id: McpClaimId, c: Case): [McpCall[], unknown] {
  return [c.earlier ?? [], (id === 'CLM-6' ? c.calls : c.arguments) ?? null]
}
