import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolExecution, ToolExecutionInput } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, flush, tool, traceStages, tracedTool, type Stage } from './helpers.js'
import { asAny, errorCode, recordingApproval } from './helpers-policy.js'

/** Whether every object reachable from `value` is frozen. */
function deepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen)
}

describe('IN: materializing the call', () => {
  it('IN-1 arguments are a deep-frozen copy, never the caller object, and every stage and the body see that same copy', async () => {
    const seen: JsonValue[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (args, exec) => (seen.push(args, exec.arguments), {}) }))
    registry.onPreExecute(async (exec, next) => (seen.push(exec.arguments), next()))
    registry.guard((exec) => (seen.push(exec.arguments), undefined))
    registry.onExecute(async (exec, next) => (seen.push(exec.arguments), next()))
    registry.onPostExecute(async (exec, _result, next) => (seen.push(exec.arguments), next()))
    registry.onResult((exec) => {
      seen.push(exec.arguments)
    })
    const original = { path: 'a', nested: { list: [1, { deep: true }] } }
    const result = await registry.execute(call('echo', original))
    expect(result.isError).toBe(false)
    expect(seen).toHaveLength(7)
    const [snapshot] = seen
    expect(snapshot).not.toBe(original)
    expect(snapshot).toEqual(original)
    expect(deepFrozen(snapshot)).toBe(true)
    for (const args of seen) expect(args).toBe(snapshot)
  })

  it("IN-1 the caller mutating its input after entry changes neither the arguments nor the tool that runs", async () => {
    const gate = deferred<void>()
    const ran: string[] = []
    const registry = createRegistry()
    registry.register(tool({ name: 'a', execute: async (args) => (ran.push(`a:${JSON.stringify(args)}`), {}) }))
    registry.register(tool({ name: 'b', execute: async (args) => (ran.push(`b:${JSON.stringify(args)}`), {}) }))
    registry.onPreExecute(async (_exec, next) => {
      await gate.promise
      return next()
    })
    const args = { n: 1, list: [1] }
    const input = call('a', args)
    const pending = registry.execute(input)
    await flush()
    args.n = 2
    args.list.push(2)
    input.name = 'b'
    input.arguments = { n: 3 }
    gate.resolve()
    expect((await pending).isError).toBe(false)
    expect(ran).toEqual(['a:{"n":1,"list":[1]}'])
  })

  it('IN-1 a listener cannot reassign the execution fields or mutate its arguments; the body sees what was snapshotted at entry', async () => {
    const agent = { id: 'A' }
    // What the listener sees after its attempts, then what the body sees.
    const views: ToolExecution[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (_args, exec) => (views.push(exec), {}) }))
    let entryToken: unknown
    registry.onPreExecute(async (exec, next) => {
      entryToken = exec.token
      const writable = exec as unknown as Record<string, unknown>
      const tries: (() => void)[] = [
        () => (writable.arguments = { n: 99 }),
        () => (writable.name = 'other'),
        () => (writable.callId = 'forged'),
        () => (writable.agent = {}),
        () => (writable.token = Symbol('forged')),
        () => ((exec.arguments as Record<string, unknown>).n = 99),
        () => Object.defineProperty(exec, 'name', { value: 'other' }),
        () => delete writable.agent,
      ]
      for (const attempt of tries) {
        try {
          attempt()
        } catch {
          // Failing is one of the two allowed answers; being ignored is the other.
        }
      }
      views.push(exec)
      return next()
    })
    const input = call('echo', { n: 1 }, { agent })
    const result = await registry.execute(input)
    expect(result.isError).toBe(false)
    expect(views).toHaveLength(2)
    for (const exec of views) {
      expect(exec.arguments).toEqual({ n: 1 })
      expect(exec.name).toBe('echo')
      expect(exec.callId).toBe(input.callId)
      expect(exec.agent).toBe(agent)
      expect(exec.token).toBe(entryToken)
    }
  })

  it('IN-1 the body that runs is the one named at entry, even if a listener swaps the registration mid-call', async () => {
    const ran: string[] = []
    const registry = createRegistry()
    const dispose = registry.register(tool({ execute: async () => (ran.push('original'), {}) }))
    registry.onPreExecute(async (_exec, next) => {
      dispose()
      registry.register(tool({ execute: async () => (ran.push('swapped'), {}) }))
      return next()
    })
    await registry.execute(call('echo'))
    expect(ran).toEqual(['original'])
  })

  it('IN-1 a wrapper cannot hand the body other arguments through next()', async () => {
    const bodyArgs: JsonValue[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (args) => (bodyArgs.push(args), {}) }))
    registry.onExecute(async (_exec, next) => asAny<(overrides: unknown) => ReturnType<typeof next>>(next)({ arguments: { n: 2 }, name: 'other' }))
    const result = await registry.execute(call('echo', { n: 1 }))
    expect(result.isError).toBe(false)
    expect(bodyArgs).toEqual([{ n: 1 }])
  })

  const cycle: Record<string, unknown> = { a: 1 }
  cycle.self = cycle
  it.each([
    ['a BigInt', { n: 1n }],
    ['a cycle', cycle],
    ['a throwing getter', Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('getter') } })],
    ['a function', { f: () => 1 }],
    ['undefined', { u: undefined }],
    ['NaN', { n: NaN }],
    ['-0', { z: -0 }],
    ['a Map', new Map([['k', 1]])],
    ['a class instance', new (class Args {
      n = 1
    })()],
    ['a sparse array', { list: [1, , 3] }],
  ])('IN-2 arguments containing %s end the call in error before any listener, approval, guard, wrapper or body', async (_label, args) => {
    const log: Stage[] = []
    const approval = recordingApproval(() => 'allowed-once')
    const registry = createRegistry({ approval })
    registry.register(tracedTool(log))
    traceStages(registry, log)
    const result = await registry.execute(call('echo', args))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('pre')
    expect(log).not.toContain('guard')
    expect(log).not.toContain('wrapper')
    expect(log).not.toContain('body')
    expect(approval.requests).toEqual([])
    expect(log.filter((stage) => stage === 'result')).toHaveLength(1)
  })

  it('IN-3 each execution gets a fresh token, and every stage of one call sees the same token', async () => {
    const tokens = new Map<string, unknown[]>()
    const see = (exec: ToolExecution) => {
      tokens.set(exec.callId, [...(tokens.get(exec.callId) ?? []), exec.token])
    }
    const registry = createRegistry()
    registry.register({
      ...tool({ execute: async (_args, exec) => (see(exec), {}) }),
      finalizeContent: (exec) => (see(exec), undefined),
    })
    registry.onPreExecute(async (exec, next) => (see(exec), next()))
    registry.guard((exec) => (see(exec), undefined))
    registry.onExecute(async (exec, next) => (see(exec), next()))
    registry.onPostExecute(async (exec, _result, next) => (see(exec), next()))
    registry.onResult((exec) => see(exec))
    const first = call('echo')
    const second = call('echo')
    await Promise.all([registry.execute(first), registry.execute(second)])
    const a = tokens.get(first.callId)!
    const b = tokens.get(second.callId)!
    expect(a).toHaveLength(7)
    expect(b).toHaveLength(7)
    expect(new Set(a).size).toBe(1)
    expect(new Set(b).size).toBe(1)
    expect(a[0]).not.toBe(b[0])
  })

  it('IN-3 a repeated callId still gets a fresh token per execution', async () => {
    const tokens: unknown[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (_args, exec) => (tokens.push(exec.token), {}) }))
    const input = call('echo')
    await registry.execute(input)
    await registry.execute({ ...input, signal: new AbortController().signal })
    expect(tokens).toHaveLength(2)
    expect(tokens[0]).not.toBe(tokens[1])
  })

  it('IN-3 the caller cannot choose the token', async () => {
    const chosen = Symbol('chosen')
    const tokens: unknown[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (_args, exec) => (tokens.push(exec.token), {}) }))
    registry.onPreExecute(async (exec, next) => (tokens.push(exec.token), next()))
    await registry.execute({ ...call('echo'), token: chosen } as ToolExecutionInput)
    expect(tokens).toHaveLength(2)
    expect(tokens).not.toContain(chosen)
  })

  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'echo'],
    ['an empty object', {}],
    ['an input without signal', { callId: 'c', name: 'echo', arguments: {} }],
    ['an input with a non-string callId', { callId: 1, name: 'echo', arguments: {}, signal: new AbortController().signal }],
    ['an input with a non-string name', { callId: 'c', name: 7, arguments: {}, signal: new AbortController().signal }],
    [
      'an input whose name getter throws',
      Object.defineProperty({ callId: 'c', arguments: {}, signal: new AbortController().signal }, 'name', {
        get: () => {
          throw new Error('name')
        },
      }),
    ],
  ])('IN-4 execute(%s) resolves with an error outcome, never rejects', async (_label, input) => {
    const ran: string[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async () => (ran.push('body'), {}) }))
    const result = await registry.execute(asAny<ToolExecutionInput>(input))
    expect(result.isError).toBe(true)
    expect(ran).toEqual([])
  })

  it('IN-4 a call to an unknown tool resolves with UNKNOWN_TOOL', async () => {
    const registry = createRegistry()
    const result = await registry.execute(call('nowhere'))
    expect(result.isError).toBe(true)
    expect(errorCode(result)).toBe('UNKNOWN_TOOL')
  })

  const boom = () => {
    throw new Error('boom')
  }
  type Setup = (registry: ReturnType<typeof createRegistry>) => void
  it.each<[string, Setup, { approval?: boolean; body?: () => never; finalize?: () => never }]>([
    ['a pre-execute listener', (r) => r.onPreExecute(async () => boom()), {}],
    ['a synchronous pre-execute listener', (r) => r.onPreExecute(asAny(() => boom())), {}],
    ['the approval service', (r) => r.onPreExecute(async () => ({ kind: 'ask' })), { approval: true }],
    ['a guard', (r) => r.guard(() => boom()), {}],
    ['a wrapper', (r) => r.onExecute(async () => boom()), {}],
    ['the body', () => undefined, { body: boom }],
    ['a post-execute listener', (r) => r.onPostExecute(async () => boom()), {}],
    ['the finalizer', () => undefined, { finalize: boom }],
  ])('IN-4 a throwing %s becomes an error outcome, execute still resolves', async (_label, setup, opts) => {
    const registry = createRegistry(opts.approval ? { approval: { request: boom } } : {})
    registry.register({
      ...tool(opts.body ? { execute: asAny(opts.body) } : {}),
      ...(opts.finalize ? { finalizeContent: opts.finalize } : {}),
    })
    setup(registry)
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
  })

  it('IN-4 a throwing result observer leaves the outcome intact and execute still resolves', async () => {
    const registry = createRegistry()
    registry.register(tool())
    registry.onResult(boom)
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
  })
})
