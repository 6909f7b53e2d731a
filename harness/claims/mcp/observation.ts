/**
 * Observing the server between calls: the named state, its resources, and the answers of its own
 * read-only tools to fixed arguments (the observers). An observer is a read-only tool whose
 * sparsest valid arguments get the same answer twice in a row on a fresh server, within the call
 * bound: a tool that answers differently each time (a clock, a counter) tells nothing about a call
 * in between, and is left out (the report's notes say which). The two rounds are more than a
 * second apart, so that an answer holding a clock's seconds differs.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { isDeepStrictEqual } from 'node:util'
import type { JsonValue } from '../../contract/spec.js'
import { mcpArgumentsFor } from './mcp-arguments.js'
import type { NamedState } from './named-state.js'
import { CallStalled, type ServerSession } from './server-session.js'
import type { McpCall, Observation } from './types.js'

/** More than a second: an answer that holds a clock's seconds differs between two observations this far apart. */
export const CLOCK_TICK_MS = 1_100

export interface Observers {
  readonly calls: readonly McpCall[]
  /** Read-only tools left out, with why. */
  readonly left: readonly string[]
  /** Read-only tools that answered differently twice in a row: their answers cannot be compared (CLM-6 does not call them). */
  readonly unstable: readonly string[]
}

export async function observe(session: ServerSession, observers: Observers, state: NamedState | undefined, timeoutMs: number): Promise<Observation> {
  const views: { [tool: string]: JsonValue } = {}
  for (const call of observers.calls) views[call.tool] = (await session.call(call.tool, call.arguments, timeoutMs)) as unknown as JsonValue
  const resources = await session.resources(timeoutMs)
  return {
    ...(state ? { state: await state.read() } : {}),
    ...(resources !== undefined ? { resources } : {}),
    views,
  }
}

/** Picks the observers on a fresh server: each read-only tool's sparsest valid arguments, kept while two observations agree on it. */
export async function chooseObservers(session: ServerSession, words: readonly string[], timeoutMs: number, gapMs = CLOCK_TICK_MS): Promise<Observers> {
  const left: string[] = []
  let calls: McpCall[] = []
  for (const tool of session.tools.filter((t) => t.hints.readOnlyHint === true)) {
    const edge = mcpArgumentsFor(tool.name, tool.inputSchema, words).edges[0]
    if (edge === undefined) left.push(`${tool.name} (no valid sparse arguments)`)
    else calls.push({ tool: tool.name, arguments: edge })
  }
  const answers = async (): Promise<Map<string, unknown>> => {
    const out = new Map<string, unknown>()
    for (const call of calls) {
      try {
        out.set(call.tool, await session.call(call.tool, call.arguments, timeoutMs))
      } catch (error) {
        if (!(error instanceof CallStalled)) throw error
        out.set(call.tool, error)
      }
    }
    return out
  }
  // One round drops the observers that stall, two more those that answer differently each time.
  const first = await answers()
  const stalled = calls.filter((c) => first.get(c.tool) instanceof CallStalled)
  left.push(...stalled.map((c) => `${c.tool} (did not answer within ${timeoutMs} ms)`))
  calls = calls.filter((c) => !stalled.includes(c))
  const a = await answers()
  await sleep(gapMs)
  const b = await answers()
  const unstable = calls.filter((c) => !isDeepStrictEqual(a.get(c.tool), b.get(c.tool)))
  left.push(...unstable.map((c) => `${c.tool} (answered differently twice in a row)`))
  calls = calls.filter((c) => !unstable.includes(c))
  return { calls, left, unstable: unstable.map((c) => c.tool) }
}
