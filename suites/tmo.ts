/** TMO: timeouts. These properties spend real time, so they run few cases. */
import fc from 'fast-check'
import { codeOf, custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { abortOf, sleep } from './real-time.js'

/** How late an abort may arrive at a body that ignores its signal, on a loaded machine. */
const DELIVERY_GRACE_MS = 2_000

export default [
  custom(
    'TMO-1', 'the registry arms no timer of its own: without the policy a body past timeoutMs completes; with it, a tool without timeoutMs has no deadline',
    fc.record({
      timeoutMs: fc.integer({ min: 1, max: 4 }),
      overrunMs: fc.integer({ min: 5, max: 15 }),
      withPolicy: fc.boolean(),
    }),
    (c) => [
      c.withPolicy
        ? `tool slow, without timeoutMs: its body takes ${c.timeoutMs + c.overrunMs} ms`
        : `tool slow, timeoutMs ${c.timeoutMs}: its body takes ${c.timeoutMs + c.overrunMs} ms`,
      c.withPolicy ? 'the registry has the timeout policy (when the adapter offers it)' : 'the registry has no timeout policy',
      'one call to slow',
    ],
    async (ctx, c) => {
      const withPolicy = c.withPolicy && ctx.adapter.profiles.includes('timeout')
      const registry = await ctx.registry(withPolicy ? { timeoutPolicy: true } : {})
      let bodySignal: AbortSignal | undefined
      const overrun = async (_args: unknown, exec: { signal: AbortSignal }) => {
        bodySignal = exec.signal
        await sleep(c.timeoutMs + c.overrunMs)
        return { finished: true }
      }
      registry.register(withPolicy ? liveTool('slow', { execute: overrun as never }) : liveTool('slow', { timeoutMs: c.timeoutMs, execute: overrun as never }))
      const result = await registry.execute(input('slow'))
      if (result.isError) ctx.fail(`the overrunning body ended as an error (${codeOf(registry, result)})`)
      if (bodySignal?.aborted) ctx.fail('the body\'s signal was aborted although no deadline applies')
    },
    'core', 12, 1000,
  ),

  custom(
    'TMO-2', 'with the timeout policy, a body still running at timeoutMs sees its signal abort, and the outcome is TOOL_TIMEOUT only once the body has settled',
    fc.record({
      timeoutMs: fc.integer({ min: 1, max: 4 }),
      cooperative: fc.boolean(),
      lingerMs: fc.integer({ min: 0, max: 5 }),
      throws: fc.boolean(),
      delegating: fc.boolean(),
    }),
    (c) => [
      `tool slow, timeoutMs ${c.timeoutMs}: its body ${c.cooperative ? 'waits for its signal' : `ignores its signal for ${c.timeoutMs + 10} ms`}, ` +
        `then lingers ${c.lingerMs} ms and ${c.throws ? 'throws' : 'returns'}`,
      `tool fast, timeoutMs ${c.timeoutMs}: its body returns at once`,
      `the registry has the timeout policy${c.delegating ? ' and a wrapper that calls next() with no overrides' : ''}; ` +
        'one call to slow, then one to fast, then slow again, whose body now returns at once',
    ],
    async (ctx, c) => {
      const registry = await ctx.registry({ timeoutPolicy: true })
      // A wrapper that only delegates hands on the signal of its level: the policy's, wherever it sits.
      if (c.delegating) registry.onExecute((_exec, next) => next())
      let bodySettled = false
      let sawAbort = false
      let slowCalls = 0
      registry.register(liveTool('slow', {
        timeoutMs: c.timeoutMs,
        execute: (async (_args: unknown, exec: { signal: AbortSignal }) => {
          if (++slowCalls > 1) return { again: true }
          try {
            if (c.cooperative) await abortOf(exec.signal)
            else await sleep(c.timeoutMs + 10)
            // The abort may cross a process boundary (--command): allow it time to arrive.
            if (!exec.signal.aborted) await Promise.race([abortOf(exec.signal), sleep(DELIVERY_GRACE_MS)])
            sawAbort = exec.signal.aborted
            await sleep(c.lingerMs)
            if (c.throws) throw new Error('stopped')
            return { finished: true }
          } finally {
            bodySettled = true
          }
        }) as never,
      }))
      registry.register(liveTool('fast', { timeoutMs: c.timeoutMs }))
      const result = await registry.execute(input('slow'))
      if (!bodySettled) ctx.fail('execute settled before the body did')
      if (!sawAbort) ctx.fail('the body\'s signal had not aborted at timeoutMs')
      if (codeOf(registry, result) !== 'TOOL_TIMEOUT') ctx.fail(
        `the outcome is ${result.isError ? codeOf(registry, result) : 'a success'}, expected TOOL_TIMEOUT`,
      )
      const fast = await registry.execute(input('fast'))
      if (fast.isError) ctx.fail('a body finishing at once was timed out')
      // Each call has a deadline of its own: one that passed for an earlier call of the tool is not this one's.
      const again = await registry.execute(input('slow'))
      if (again.isError) ctx.fail('a second call of the tool that timed out, returning at once, was timed out too')
    },
    'timeout', 12, 1000,
  ),
]
