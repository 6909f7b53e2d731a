/**
 * EXE-1 for calls in flight together: "Wrappers nest in registration order; the innermost `next()`
 * invokes the body". Each call has its own pass through the chain: a wrapper that awaits before
 * next() while another call enters the chain must still lead its own call to its body, once. A
 * registry that keeps the chain's dispatch state per registry, not per call, reads the second
 * call's next() as a repeat.
 */
import fc from 'fast-check'
import { codeOf, custom, input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ExecuteWrapper } from '../harness/contract/adapter.js'
import type { ToolExecutionResult } from '../harness/contract/spec.js'

export interface OverlapCase {
  /** Calls started together. */
  calls: number
  /** Wrappers registered, outermost first. */
  wrappers: number
  /** The wrapper that waits, before its next(), until every call has reached it. */
  waiting: number
  /** Whether each call has a tool of its own (one tool for all otherwise). */
  toolPerCall: boolean
}

const overlapCases: fc.Arbitrary<OverlapCase> = fc
  .record({ calls: fc.integer({ min: 2, max: 3 }), wrappers: fc.integer({ min: 1, max: 3 }), waiting: fc.nat(2), toolPerCall: fc.boolean() })
  .map((c) => ({ ...c, waiting: c.waiting % c.wrappers }))

const story = (c: OverlapCase): string[] => [
  `${c.wrappers} wrapper(s) w0${c.wrappers > 1 ? `..w${c.wrappers - 1}` : ''}, each passing next() on`,
  `w${c.waiting} first waits until every call has reached it`,
  `${c.calls} calls started together, ${c.toolPerCall ? 'each to a tool of its own' : 'all to one tool'}; each body returns { ok: true }`,
  'every call succeeds, its body run once, through the wrappers in registration order',
]

/** Waits until `count` arrivals, or a few turns of the event loop (a registry that runs calls one at a time never gathers them). */
function gathering(count: number): () => Promise<void> {
  let arrived = 0
  let release!: () => void
  const all = new Promise<void>((resolve) => (release = resolve))
  const turns = async () => {
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve))
  }
  return () => (++arrived === count && release(), Promise.race([all, turns()]))
}

async function check(ctx: CustomContext, c: OverlapCase): Promise<void> {
  const registry = await ctx.registry()
  const toolOf = (call: number) => (c.toolPerCall ? `tool${call}` : 'tool0')
  const trail = new Map<string, string[]>()
  const log = (callId: string, step: string) => trail.set(callId, [...(trail.get(callId) ?? []), step])
  for (let call = 0; call < (c.toolPerCall ? c.calls : 1); call++) {
    registry.register(liveTool(toolOf(call), { execute: async (_args, exec) => (log(exec.callId, 'body'), { ok: true }) }))
  }
  const arrive = gathering(c.calls)
  for (let level = 0; level < c.wrappers; level++) {
    const wrapper: ExecuteWrapper = async (exec, next) => {
      log(exec.callId, `w${level}`)
      if (level === c.waiting) await arrive()
      return next()
    }
    registry.onExecute(wrapper)
  }
  const callIds = Array.from({ length: c.calls }, (_, call) => `x-overlap-${call}`)
  const results: ToolExecutionResult[] = await Promise.all(
    callIds.map((callId, call) => registry.execute(input(toolOf(call), {}, { callId }))),
  )
  const nested = [...Array.from({ length: c.wrappers }, (_, level) => `w${level}`), 'body'].join(' > ')
  results.forEach((result, call) => {
    const callId = callIds[call]!
    const path = (trail.get(callId) ?? []).join(' > ')
    if (result.isError) ctx.fail(`call ${callId}, in flight with ${c.calls - 1} other(s), ended as an error (code ${String(codeOf(registry, result))})`)
    else if (path !== nested) ctx.fail(`call ${callId}, in flight with ${c.calls - 1} other(s), went ${path || 'nowhere'} (registered: ${nested})`)
  })
}

export const overlappingCalls = custom(
  'EXE-1', 'calls in flight together each pass through the wrappers in registration order to their own body, once',
  overlapCases,
  story,
  check,
)
