import { describe, expect, it } from 'vitest'
import { createRegistry } from '../index.js'
import { call, deferred, flush, tool } from './helpers.js'
import { codeOf, numberOutput } from './helpers-outcome.js'

/** TMO needs real timers; they are kept short. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe('TMO: timeouts', () => {
  it('TMO-1 without the timeout policy a body running past its timeoutMs completes normally', async () => {
    let signalAborted: boolean | undefined
    const registry = createRegistry()
    registry.register(
      tool({
        timeoutMs: 10,
        output: numberOutput,
        execute: async (_args, exec) => {
          await sleep(40)
          signalAborted = exec.signal.aborted
          return { n: 1 }
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 } })
    expect(signalAborted).toBe(false)
  })

  it('TMO-1 with the timeout policy a tool that declares no timeoutMs has no deadline', async () => {
    let signalAborted: boolean | undefined
    const registry = createRegistry({ timeoutPolicy: true })
    registry.register(
      tool({
        output: numberOutput,
        execute: async (_args, exec) => {
          await sleep(40)
          signalAborted = exec.signal.aborted
          return { n: 1 }
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 } })
    expect(signalAborted).toBe(false)
  })

  it('TMO-2 with the policy the body signal aborts at timeoutMs and TOOL_TIMEOUT comes only after the body settled', async () => {
    const log: string[] = []
    const sawAbort = deferred()
    const release = deferred()
    const caller = new AbortController()
    const registry = createRegistry({ timeoutPolicy: true })
    registry.register(
      tool({
        timeoutMs: 20,
        execute: async (_args, exec) => {
          exec.signal.addEventListener('abort', () => sawAbort.resolve(), { once: true })
          await release.promise
          log.push('body:settled')
          return {}
        },
      }),
    )
    const startedAt = Date.now()
    const pending = registry.execute(call('echo', {}, { signal: caller.signal })).then((result) => {
      log.push('execute:settled')
      return result
    })
    await sawAbort.promise
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(15)
    expect(caller.signal.aborted).toBe(false)
    await flush()
    expect(log).toEqual([])
    release.resolve()
    const result = await pending
    expect(log).toEqual(['body:settled', 'execute:settled'])
    expect(codeOf(result)).toBe('TOOL_TIMEOUT')
  })

  it('TMO-2 a body that rejects after its deadline still ends as TOOL_TIMEOUT', async () => {
    const registry = createRegistry({ timeoutPolicy: true })
    registry.register(
      tool({
        timeoutMs: 20,
        execute: (_args, exec) =>
          new Promise((_resolve, reject) => {
            exec.signal.addEventListener('abort', () => reject(new Error('gave up')), { once: true })
          }),
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('TOOL_TIMEOUT')
  })

  it('TMO-2 a body that finishes before its timeoutMs succeeds and its signal never aborts', async () => {
    let signal: AbortSignal | undefined
    const registry = createRegistry({ timeoutPolicy: true })
    registry.register(
      tool({
        timeoutMs: 50,
        output: numberOutput,
        execute: async (_args, exec) => {
          signal = exec.signal
          return { n: 1 }
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 } })
    await sleep(70)
    expect(signal?.aborted).toBe(false)
  })
})
