import { describe, expect, it } from 'vitest'
import type { ApprovalOutcome } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, flush, tool, traceStages, tracedTool, type Stage } from './helpers.js'
import { codeOf, numberOutput } from './helpers-outcome.js'

/** A tool whose body announces its start and waits for `release`; records 'body' / 'body:settled'. */
function gatedTool(log: string[]) {
  const started = deferred()
  const release = deferred<'ok' | 'throw'>()
  const def = tool({
    output: numberOutput,
    execute: async () => {
      log.push('body')
      started.resolve()
      const how = await release.promise
      log.push('body:settled')
      if (how === 'throw') throw Object.assign(new Error('own failure'), { code: 'E_OWN' })
      return { n: 1 }
    },
  })
  return { def, started, release }
}

describe('CAN: cancellation is cooperative and quiescent', () => {
  it('CAN-1 a signal aborted at entry gives ABORTED_BEFORE_DISPATCH and no listener, approval, guard, wrapper or body runs', async () => {
    const log: Stage[] = []
    const approvals: string[] = []
    const registry = createRegistry({
      approval: {
        request: () => {
          approvals.push('asked')
          return 'allowed-once'
        },
      },
    })
    registry.register(tracedTool(log))
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    traceStages(registry, log)
    const result = await registry.execute(call('echo', {}, { signal: AbortSignal.abort(), agent: {} }))
    expect(codeOf(result)).toBe('ABORTED_BEFORE_DISPATCH')
    expect(approvals).toEqual([])
    expect(log).toEqual(['finalize', 'result'])
  })

  it('CAN-1 invalid arguments win over a signal aborted at entry', async () => {
    const log: Stage[] = []
    const registry = createRegistry()
    registry.register(tracedTool(log))
    traceStages(registry, log)
    const result = await registry.execute(call('echo', { n: 1n }, { signal: AbortSignal.abort() }))
    expect(result.isError).toBe(true)
    expect(codeOf(result)).not.toBe('ABORTED_BEFORE_DISPATCH')
    expect(log).toEqual(['finalize', 'result'])
  })

  it('CAN-2 an abort while a pre-execute listener is pending means the body never runs', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const gate = deferred()
    const entered = deferred()
    const { def } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.onPreExecute(async (_exec, next) => {
      entered.resolve()
      await gate.promise
      return next()
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await entered.promise
    controller.abort()
    gate.resolve()
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).toEqual([])
  })

  it('CAN-2 an abort while approval is pending means the body never runs', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const answer = deferred<ApprovalOutcome>()
    const asked = deferred()
    const { def } = gatedTool(log)
    const registry = createRegistry({
      approval: {
        request: () => {
          asked.resolve()
          return answer.promise
        },
      },
    })
    registry.register(def)
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    const pending = registry.execute(call('echo', {}, { signal: controller.signal, agent: {} }))
    await asked.promise
    controller.abort()
    answer.resolve('allowed-once')
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).toEqual([])
  })

  it('CAN-2 an abort while a wrapper is pending before next() means the body never runs', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const gate = deferred()
    const entered = deferred()
    const { def } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.onExecute(async (_exec, next) => {
      entered.resolve()
      await gate.promise
      return next()
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await entered.promise
    controller.abort()
    gate.resolve()
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).toEqual([])
  })

  it('CAN-3 execute settles only after the aborted body settles, and the success becomes ABORTED', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const { def, started, release } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    const pending = registry.execute(call('echo', {}, { signal: controller.signal })).then((result) => {
      log.push('execute:settled')
      return result
    })
    await started.promise
    controller.abort()
    await flush()
    expect(log).toEqual(['body'])
    release.resolve('ok')
    const result = await pending
    expect(log).toEqual(['body', 'body:settled', 'execute:settled'])
    expect(codeOf(result)).toBe('ABORTED')
    expect('value' in result).toBe(false)
  })

  it('CAN-3 a wrapper that returns without awaiting the started body does not let execute settle before the body', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const { def, started, release } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.onExecute(async (_exec, next) => {
      void next()
      await started.promise
      return { isError: false, value: { n: 2 }, content: [] }
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal })).then((result) => {
      log.push('execute:settled')
      return result
    })
    await started.promise
    controller.abort()
    await flush()
    expect(log).toEqual(['body'])
    release.resolve('ok')
    const result = await pending
    expect(log).toEqual(['body', 'body:settled', 'execute:settled'])
    expect(codeOf(result)).toBe('ABORTED')
  })

  it('CAN-3 without an abort, execute still waits for a started body a wrapper did not await', async () => {
    const log: string[] = []
    const { def, started, release } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.onExecute(async (_exec, next) => {
      void next()
      await started.promise
      return { isError: false, value: { n: 2 }, content: [] }
    })
    const pending = registry.execute(call('echo')).then((result) => {
      log.push('execute:settled')
      return result
    })
    await started.promise
    await flush()
    expect(log).toEqual(['body'])
    release.resolve('ok')
    await pending
    expect(log).toEqual(['body', 'body:settled', 'execute:settled'])
  })

  it("CAN-4 a tool's own error after an abort stays as it is", async () => {
    const log: string[] = []
    const controller = new AbortController()
    const { def, started, release } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await started.promise
    controller.abort()
    release.resolve('throw')
    expect(codeOf(await pending)).toBe('E_OWN')
  })

  it('CAN-4 a post-execute block of an aborted call stays a block', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const { def, started, release } = gatedTool(log)
    const feedback = [{ type: 'text' as const, text: 'blocked' }]
    const registry = createRegistry()
    registry.register(def)
    registry.onPostExecute(async () => ({ kind: 'block', feedback }))
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await started.promise
    controller.abort()
    release.resolve('ok')
    const result = await pending
    expect(result.isError).toBe(true)
    expect(codeOf(result)).not.toBe('ABORTED')
    expect(result.content).toEqual(feedback)
  })

  it('CAN-4 a denial decided while the caller aborted stays a denial', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const gate = deferred()
    const entered = deferred()
    const { def } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.onPreExecute(async () => {
      entered.resolve()
      await gate.promise
      return { kind: 'deny', reason: 'not allowed' }
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await entered.promise
    controller.abort()
    gate.resolve()
    const result = await pending
    expect(result.isError).toBe(true)
    expect(codeOf(result)).not.toBe('ABORTED')
    expect(log).toEqual([])
  })

  it('CAN-4 a guard denial is not turned into an abort', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const { def } = gatedTool(log)
    const registry = createRegistry()
    registry.register(def)
    registry.guard(() => {
      controller.abort()
      return 'denied by guard'
    })
    const result = await registry.execute(call('echo', {}, { signal: controller.signal }))
    expect(result.isError).toBe(true)
    expect(codeOf(result)).not.toBe('ABORTED')
    expect(log).toEqual([])
  })

  it('CAN-4 a TOOL_TIMEOUT stays when the caller aborts too', async () => {
    const controller = new AbortController()
    const timedOut = deferred()
    const release = deferred()
    const registry = createRegistry({ timeoutPolicy: true })
    registry.register(
      tool({
        timeoutMs: 5,
        execute: async (_args, exec) => {
          exec.signal.addEventListener('abort', () => timedOut.resolve(), { once: true })
          await release.promise
          return {}
        },
      }),
    )
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await timedOut.promise
    controller.abort()
    release.resolve()
    expect(codeOf(await pending)).toBe('TOOL_TIMEOUT')
  })
})
