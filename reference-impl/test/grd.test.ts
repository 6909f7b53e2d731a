import { describe, expect, it } from 'vitest'
import type { ToolGuard } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, tool, tracedTool, type Stage } from './helpers.js'
import { asAny, recordingApproval } from './helpers-policy.js'

/** A registry with a traced `echo` tool; `log` receives the body's and the finalizer's marks. */
function tracedRegistry(log: string[], options: Parameters<typeof createRegistry>[0] = {}) {
  const registry = createRegistry(options)
  registry.register(tracedTool(log as Stage[]))
  return registry
}

describe('GRD: monotonic guards', () => {
  it("GRD-1 guards run after the waterfall's final allow and before any wrapper or body", async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async (_exec, next) => {
      log.push('pre:in')
      const decision = await next()
      log.push('pre:out')
      return decision
    })
    registry.guard(() => (log.push('guard:1'), undefined))
    registry.guard(() => (log.push('guard:2'), undefined))
    registry.onExecute(async (_exec, next) => (log.push('wrapper'), next()))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['pre:in', 'pre:out', 'guard:1', 'guard:2', 'wrapper', 'body', 'finalize'])
  })

  it('GRD-1 guards do not run when the waterfall denies', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.guard(() => (log.push('guard'), undefined))
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
    await registry.execute(call('echo'))
    expect(log).not.toContain('guard')
  })

  it('GRD-1 guards run after an approved ask and receive the execution', async () => {
    const log: string[] = []
    const approval = recordingApproval(() => (log.push('approval'), 'allowed-once'))
    const registry = tracedRegistry(log, { approval })
    const input = call('echo', { n: 1 }, { agent: {} })
    registry.guard((exec) => (log.push(`guard:${exec.callId}`), undefined))
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    await registry.execute(input)
    expect(log).toEqual(['approval', `guard:${input.callId}`, 'body', 'finalize'])
  })

  it.each([
    ['a reason string', 'not now'],
    ['an empty string', ''],
    ['null', null],
    ['false', false],
    ['0', 0],
    ['an object', {}],
    ['a Promise of undefined', Promise.resolve(undefined)],
  ])('GRD-1 a guard returning %s denies the call', async (_label, verdict) => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onExecute(async (_exec, next) => (log.push('wrapper'), next()))
    registry.guard(() => asAny<string | undefined>(verdict))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('wrapper')
    expect(log).not.toContain('body')
  })

  it('GRD-1 a guard returning a rejected Promise denies the call', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.guard(() => asAny<undefined>(Promise.reject(new Error('async guard'))))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('GRD-1 one denying guard among passing guards denies', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.guard(() => undefined)
    registry.guard(() => 'the middle one says no')
    registry.guard(() => undefined)
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('GRD-2 no listener turns a guard denial into an execution, whatever the registration order', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async () => ({ kind: 'allow' }))
    registry.guard(() => 'denied')
    registry.onPreExecute(async () => ({ kind: 'allow' }))
    registry.onExecute(async (_exec, next) => (log.push('wrapper'), next()))
    registry.onPostExecute(async () => ({ kind: 'accept', value: { ok: true } }))
    registry.onPostExecute(async () => ({ kind: 'accept', content: [{ type: 'text', text: 'fine' }] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('wrapper')
    expect(log).not.toContain('body')
  })

  it("GRD-2 a listener that disposes a guard mid-call does not turn that guard's denial into an execution", async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    const disposeGuard = registry.guard(() => 'denied')
    registry.onPreExecute(async (_exec, next) => {
      disposeGuard()
      return next()
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('GRD-2 an explicit allow from the only listener does not skip the guards', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.guard(() => (log.push('guard'), 'no'))
    registry.onPreExecute(async () => ({ kind: 'allow' }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).toContain('guard')
    expect(log).not.toContain('body')
  })

  it('GRD-2 adding a guard or a denying listener can only remove executions', async () => {
    const ran: string[] = []
    const registry = createRegistry()
    for (const name of ['a', 'b', 'c']) registry.register(tool({ name, execute: async () => (ran.push(name), {}) }))
    const runAll = async () => {
      ran.length = 0
      for (const name of ['a', 'b', 'c']) await registry.execute(call(name))
      return [...ran]
    }
    const before = await runAll()
    registry.guard((exec) => (exec.name === 'a' ? 'no a' : undefined))
    const afterGuard = await runAll()
    registry.onPreExecute(async (exec, next) => (exec.name === 'b' ? { kind: 'deny', reason: 'no b' } : next()))
    const afterListener = await runAll()
    expect(before).toEqual(['a', 'b', 'c'])
    expect(afterGuard).toEqual(['b', 'c'])
    expect(afterListener).toEqual(['c'])
  })

  it('GRD-2 a guard registered later applies to calls made afterwards', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async (_exec, next) => next())
    expect((await registry.execute(call('echo'))).isError).toBe(false)
    registry.guard(() => 'late guard')
    log.length = 0
    expect((await registry.execute(call('echo'))).isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it.each<[string, ToolGuard]>([
    [
      'an Error',
      () => {
        throw new Error('guard')
      },
    ],
    [
      'a string',
      () => {
        throw 'guard'
      },
    ],
    [
      'undefined',
      () => {
        throw undefined
      },
    ],
  ])('GRD-3 a guard that throws %s denies the call (fail-closed)', async (_label, guard) => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onExecute(async (_exec, next) => (log.push('wrapper'), next()))
    registry.guard(guard)
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('wrapper')
    expect(log).not.toContain('body')
  })
})
