/**
 * CAN-1 for a caller signal used again: a session's signal may serve call after call. A call made
 * once that signal has aborted finds it aborted at entry, whatever earlier calls found: nothing
 * runs, and the outcome is ABORTED_BEFORE_DISPATCH. A registry that remembers the signal as live
 * from an earlier entry lets the call in.
 */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

export interface ReusedSignalCase {
  /** Calls made with the signal while it is live, before it aborts. */
  liveCalls: number
  /** The call after the abort carries agent A, as the earlier ones do. */
  agent: boolean
  /** Whether the call after the abort names another tool than the earlier ones. */
  otherTool: boolean
}

export const signalReusedAfterAbort = custom(
  'CAN-1', 'a call made once its caller\'s signal aborted is ABORTED_BEFORE_DISPATCH and runs nothing, though the signal was live for earlier calls',
  fc.record<ReusedSignalCase>({ liveCalls: fc.integer({ min: 1, max: 2 }), agent: fc.boolean(), otherTool: fc.boolean() }),
  (c) => [
    'tools first and second; a pre-execute listener, a guard and a wrapper that each let the call through',
    `one caller signal: ${c.liveCalls} call(s) to first with it while it is live${c.agent ? ', for agent A' : ''}`,
    `the signal aborted; then one more call with it, to ${c.otherTool ? 'second' : 'first'}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const ran: string[] = []
    const record = (what: string) => (exec: { callId: string }) => void (exec.callId === 'x-after' && ran.push(what))
    registry.register(liveTool('first', { execute: async (_args: unknown, exec: { callId: string }) => (record('body')(exec), { ok: true }) }))
    registry.register(liveTool('second', { execute: async (_args: unknown, exec: { callId: string }) => (record('body')(exec), { ok: true }) }))
    registry.onPreExecute((exec, next) => (record('pre-execute')(exec), next()))
    registry.guard((exec) => void record('guard')(exec))
    registry.onExecute((exec, next) => (record('wrapper')(exec), next()))
    const caller = new AbortController()
    const agent = c.agent ? { agent: registry.agent('A') } : {}
    for (let i = 0; i < c.liveCalls; i++) await registry.execute(input('first', {}, { callId: `x-live-${i}`, signal: caller.signal, ...agent }))
    caller.abort()
    const after = await registry.execute(input(c.otherTool ? 'second' : 'first', {}, { callId: 'x-after', signal: caller.signal, ...agent }))
    const code = after.isError ? codeOf(registry, after) : 'a success'
    if (code !== 'ABORTED_BEFORE_DISPATCH') ctx.fail(`a call made with its caller's signal aborted ended as ${code}, expected ABORTED_BEFORE_DISPATCH`)
    if (ran.length > 0) ctx.fail(`a call made with its caller's signal aborted ran ${ran.join(', ')}`)
  },
)
