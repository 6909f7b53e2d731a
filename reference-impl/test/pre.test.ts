import { describe, expect, it } from 'vitest'
import type { PreToolDecision } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, flush, tool, traceStages, tracedTool, type Stage } from './helpers.js'
import { asAny, asDecision, recordingApproval } from './helpers-policy.js'

/** A registry with a traced `echo` tool; `log` receives the body's and the finalizer's marks. */
function tracedRegistry(log: string[], options: Parameters<typeof createRegistry>[0] = {}) {
  const registry = createRegistry(options)
  registry.register(tracedTool(log as Stage[]))
  return registry
}

describe('PRE: tools/pre-execute', () => {
  it('PRE-1 listeners run in registration order and, when all delegate, the decision is allow', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    for (const name of ['first', 'second', 'third']) {
      registry.onPreExecute(async (_exec, next) => {
        log.push(`${name}:in`)
        const decision = await next()
        log.push(`${name}:out:${decision.kind}`)
        return decision
      })
    }
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['first:in', 'second:in', 'third:in', 'third:out:allow', 'second:out:allow', 'first:out:allow', 'body', 'finalize'])
  })

  it('PRE-1 with no listener the decision is allow', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toContain('body')
  })

  it('PRE-1 a listener that returns a decision without next() decides: later listeners do not run', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async () => (log.push('first'), { kind: 'allow' }))
    registry.onPreExecute(async (_exec, next) => (log.push('second'), next()))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['first', 'body', 'finalize'])
  })

  it('PRE-2 deny ends the call with an error outcome; no guard, wrapper or body runs', async () => {
    const log: Stage[] = []
    const registry = tracedRegistry(log)
    traceStages(registry, log)
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'not allowed' }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('guard')
    expect(log).not.toContain('wrapper')
    expect(log).not.toContain('body')
  })

  it('PRE-2 a deny from an inner listener forwarded by an outer one ends the call', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async (_exec, next) => next())
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'inner' }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it.each([
    ['an unknown kind', { kind: 'permit' }],
    ['a capitalised kind', { kind: 'Allow' }],
    ['a deny without reason', { kind: 'deny' }],
    ['a deny with a non-string reason', { kind: 'deny', reason: 42 }],
    ['an ask with a non-string reason', { kind: 'ask', reason: { why: 1 } }],
    ['undefined', undefined],
    ['null', null],
    ['the string allow', 'allow'],
    ['true', true],
    ['an empty object', {}],
    ['an array', [{ kind: 'allow' }]],
    ['an object whose kind getter throws', Object.defineProperty({}, 'kind', { get: () => { throw new Error('kind') } })],
  ])('PRE-3 a decision that is %s is a denial, never an allow', async (_label, decision) => {
    const log: string[] = []
    const registry = tracedRegistry(log, { approval: recordingApproval(() => 'allowed-once') })
    registry.guard(() => (log.push('guard'), undefined))
    registry.onPreExecute(async () => asDecision(decision))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('guard')
    expect(log).not.toContain('body')
  })

  it('PRE-3 a malformed decision from an inner listener, forwarded by an outer one, is a denial', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async (_exec, next) => next())
    registry.onPreExecute(async () => asDecision({ kind: 'yes' }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('PRE-4 a listener that throws ends the call with an error outcome; the body never runs', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async () => {
      throw new Error('listener')
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('PRE-4 a listener that rejects, or throws synchronously, or throws a non-Error, ends the call in error', async () => {
    const listeners = [
      () => Promise.reject(new Error('rejected')),
      () => {
        throw new Error('sync')
      },
      async () => {
        throw 'a string'
      },
    ]
    for (const listener of listeners) {
      const log: string[] = []
      const registry = tracedRegistry(log)
      registry.onPreExecute(asAny(listener))
      const result = await registry.execute(call('echo'))
      expect(result.isError).toBe(true)
      expect(log).not.toContain('body')
    }
  })

  it('PRE-4 an inner listener that throws ends the call even when an outer listener catches it and allows', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(async (_exec, next) => {
      try {
        return await next()
      } catch {
        return { kind: 'allow' }
      }
    })
    registry.onPreExecute(async () => {
      throw new Error('inner')
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('PRE-5 ask with no approval capability configured is a denial: no guard, wrapper or body runs', async () => {
    for (const decision of [{ kind: 'ask' }, { kind: 'ask', reason: 'please' }] as PreToolDecision[]) {
      const log: Stage[] = []
      const registry = tracedRegistry(log)
      traceStages(registry, log)
      registry.onPreExecute(async () => decision)
      const result = await registry.execute(call('echo'))
      expect(result.isError).toBe(true)
      expect(log).not.toContain('guard')
      expect(log).not.toContain('wrapper')
      expect(log).not.toContain('body')
    }
  })

  it('PRE-6 the registry awaits a pending listener: execute does not settle before it does', async () => {
    const gate = deferred<PreToolDecision>()
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(() => gate.promise)
    let settled = false
    const pending = registry.execute(call('echo')).then((r) => ((settled = true), r))
    await flush()
    expect(settled).toBe(false)
    expect(log).toEqual([])
    gate.resolve({ kind: 'allow' })
    expect((await pending).isError).toBe(false)
    expect(log).toContain('body')
  })

  it('PRE-6 a listener that allows after the caller aborted is awaited, and the body never runs', async () => {
    const gate = deferred<PreToolDecision>()
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPreExecute(() => gate.promise)
    const controller = new AbortController()
    let settled = false
    const pending = registry.execute(call('echo', {}, { signal: controller.signal })).then((r) => ((settled = true), r))
    await flush()
    controller.abort()
    await flush()
    expect(settled).toBe(false)
    gate.resolve({ kind: 'allow' })
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('PRE-6 an inner listener still pending when the outer one has decided is not abandoned', async () => {
    const gate = deferred<PreToolDecision>()
    const registry = createRegistry()
    registry.register(tool())
    registry.onPreExecute(async (_exec, next) => {
      void next()
      return { kind: 'deny', reason: 'outer decided' }
    })
    registry.onPreExecute(() => gate.promise)
    let settled = false
    const pending = registry.execute(call('echo')).then((r) => ((settled = true), r))
    await flush()
    expect(settled).toBe(false)
    gate.resolve({ kind: 'allow' })
    expect((await pending).isError).toBe(true)
  })

  it('PRE-7 a listener registered for agent A receives only calls whose agent is A; global listeners receive all calls', async () => {
    const a = { name: 'A' }
    const b = { name: 'B' }
    const seen: string[] = []
    const registry = createRegistry()
    registry.register(tool())
    registry.onPreExecute(async (exec, next) => (seen.push(`A-listener:${exec.callId}`), next()), { agent: a })
    registry.onPreExecute(async (exec, next) => (seen.push(`global:${exec.callId}`), next()))
    const fromA = call('echo', {}, { agent: a })
    const fromB = call('echo', {}, { agent: b })
    const lookalike = call('echo', {}, { agent: { name: 'A' } })
    const noAgent = call('echo')
    for (const input of [fromA, fromB, lookalike, noAgent]) await registry.execute(input)
    expect(seen).toEqual([
      `A-listener:${fromA.callId}`,
      `global:${fromA.callId}`,
      `global:${fromB.callId}`,
      `global:${lookalike.callId}`,
      `global:${noAgent.callId}`,
    ])
  })

  it('PRE-7 a denial registered for agent A affects only A', async () => {
    const a = {}
    const registry = createRegistry()
    registry.register(tool())
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'A only' }), { agent: a })
    expect((await registry.execute(call('echo', {}, { agent: a }))).isError).toBe(true)
    expect((await registry.execute(call('echo', {}, { agent: {} }))).isError).toBe(false)
    expect((await registry.execute(call('echo'))).isError).toBe(false)
  })

  it('PRE-8 a listener calling next() twice gets the same decision; later listeners, approval and guards run once', async () => {
    const log: string[] = []
    const decisions: PreToolDecision[] = []
    const approval = recordingApproval(() => 'allowed-once')
    const registry = tracedRegistry(log, { approval })
    registry.guard(() => (log.push('guard'), undefined))
    registry.onPreExecute(async (_exec, next) => {
      decisions.push(await next())
      decisions.push(await next())
      return decisions[0]!
    })
    registry.onPreExecute(async () => (log.push('second'), { kind: 'ask', reason: 'check' }))
    const result = await registry.execute(call('echo', {}, { agent: {} }))
    expect(result.isError).toBe(false)
    expect(decisions[1]).toEqual(decisions[0])
    expect(log).toEqual(['second', 'guard', 'body', 'finalize'])
    expect(approval.requests).toHaveLength(1)
  })

  it('PRE-8 concurrent next() calls from one listener run the rest of the chain once', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.guard(() => (log.push('guard'), undefined))
    registry.onPreExecute(async (_exec, next) => {
      const [first, second] = await Promise.all([next(), next()])
      expect(second).toEqual(first)
      return first
    })
    registry.onPreExecute(async (_exec, next) => (log.push('second'), next()))
    registry.onPreExecute(async (_exec, next) => (log.push('third'), next()))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['second', 'third', 'guard', 'body', 'finalize'])
  })

  it('PRE-8 next() is idempotent in tools/execute: a wrapper calling it twice runs inner wrappers and the body once', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onExecute(async (_exec, next) => {
      const first = await next()
      const second = await next()
      expect(second).toBe(first)
      return first
    })
    registry.onExecute(async (_exec, next) => (log.push('inner'), next()))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['inner', 'body', 'finalize'])
  })

  it('PRE-8 next() is idempotent in tools/post-execute: a listener calling it twice runs later listeners once', async () => {
    const log: string[] = []
    const registry = tracedRegistry(log)
    registry.onPostExecute(async (_exec, _result, next) => {
      const first = await next()
      const second = await next()
      expect(second).toEqual(first)
      return first
    })
    registry.onPostExecute(async (_exec, _result, next) => (log.push('later'), next()))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['body', 'later', 'finalize'])
  })
})
