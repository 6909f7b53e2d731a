import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolDefinition } from '../../harness/contract/spec.js'
import { createRegistry, defineTool } from '../index.js'
import { call, tool } from './helpers.js'
import { asAny, errorCode } from './helpers-policy.js'

const numberParams: JsonValue = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
}

describe('DEF: the definition and its three layers', () => {
  it('DEF-1 a definition without output is rejected at registration', () => {
    const registry = createRegistry()
    const { output: _output, ...rest } = tool()
    expect(() => registry.register(asAny<ToolDefinition>(rest))).toThrow(TypeError)
  })

  it('DEF-1 a null output, or one without schema or without a render function, is rejected at registration', () => {
    const registry = createRegistry()
    const render = tool().output.render
    expect(() => registry.register(tool({ output: asAny(null) }))).toThrow(TypeError)
    expect(() => registry.register(tool({ output: asAny({ render }) }))).toThrow(TypeError)
    expect(() => registry.register(tool({ output: asAny({ schema: { type: 'object' } }) }))).toThrow(TypeError)
    expect(() => registry.register(tool({ output: asAny({ schema: { type: 'object' }, render: 'text' }) }))).toThrow(TypeError)
  })

  it.each([
    ['0', 0],
    ['-1', -1],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ["the string '5'", '5'],
    ['null', null],
  ])('DEF-1 a timeoutMs of %s is rejected at registration', (_label, timeoutMs) => {
    const registry = createRegistry()
    expect(() => registry.register(tool({ timeoutMs: asAny<number>(timeoutMs) }))).toThrow(TypeError)
  })

  it('DEF-1 a positive finite timeoutMs is accepted', () => {
    const registry = createRegistry()
    expect(() => registry.register(tool({ name: 'a', timeoutMs: 1 }))).not.toThrow()
    expect(() => registry.register(tool({ name: 'b', timeoutMs: 0.5 }))).not.toThrow()
  })

  it('DEF-1 a rejected definition leaves nothing registered', async () => {
    const registry = createRegistry()
    expect(() => registry.register(tool({ timeoutMs: -1 }))).toThrow(TypeError)
    expect(registry.schemas()).toEqual([])
    const result = await registry.execute(call('echo'))
    expect(errorCode(result)).toBe('UNKNOWN_TOOL')
  })

  it('DEF-1 the reserved name run_code is rejected at registration', () => {
    const registry = createRegistry()
    expect(() => registry.register(tool({ name: 'run_code' }))).toThrow(TypeError)
    expect(registry.reservedNames).toContain('run_code')
  })

  it('DEF-2 registering a second tool of the same name in the same layer throws, and the first stays callable', async () => {
    const ran: string[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async () => (ran.push('first'), {}) }))
    expect(() => registry.register(tool({ execute: async () => (ran.push('second'), {}) }))).toThrow()
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(ran).toEqual(['first'])
    expect(registry.schemas().map((s) => s.name)).toEqual(['echo'])
  })

  it('DEF-2 a duplicate in the same agent layer throws too', () => {
    const agent = {}
    const registry = createRegistry()
    registry.register(tool(), { agent })
    expect(() => registry.register(tool(), { agent })).toThrow()
  })

  it('DEF-2 the disposer unregisters: the name becomes UNKNOWN_TOOL and the body never runs', async () => {
    const ran: string[] = []
    const registry = createRegistry()
    const dispose = registry.register(tool({ execute: async () => (ran.push('body'), {}) }))
    dispose()
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(errorCode(result)).toBe('UNKNOWN_TOOL')
    expect(ran).toEqual([])
    expect(registry.schemas()).toEqual([])
  })

  it('DEF-2 after the disposer, the name can be registered again', async () => {
    const registry = createRegistry()
    registry.register(tool())()
    expect(() => registry.register(tool())).not.toThrow()
    expect((await registry.execute(call('echo'))).isError).toBe(false)
  })

  it('DEF-2 a disposer unregisters only its own registration: calling it again after re-registration leaves the new tool', async () => {
    const ran: string[] = []
    const registry = createRegistry()
    const disposeFirst = registry.register(tool({ execute: async () => (ran.push('first'), {}) }))
    disposeFirst()
    registry.register(tool({ execute: async () => (ran.push('second'), {}) }))
    disposeFirst()
    expect((await registry.execute(call('echo'))).isError).toBe(false)
    expect(ran).toEqual(['second'])
  })

  it('DEF-3 the registry never calls presentCall or presentResult during execution', async () => {
    const presented: string[] = []
    const def = tool({
      presentCall: () => (presented.push('call'), { card: 1 }),
      presentResult: () => (presented.push('result'), { card: 2 }),
    })
    const failing = tool({
      name: 'failing',
      presentCall: def.presentCall,
      presentResult: def.presentResult,
      execute: async () => {
        throw new Error('nope')
      },
    })
    const registry = createRegistry()
    registry.register(def)
    registry.register(failing)
    registry.schemas()
    registry.executionMode(call('echo'))
    await registry.execute(call('echo'))
    await registry.execute(call('failing'))
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
    await registry.execute(call('echo'))
    expect(presented).toEqual([])
  })

  it.each([
    ['a BigInt', () => ({ type: 'object', max: 1n })],
    ['a function', () => ({ type: 'object', check: () => true })],
    ['a symbol', () => ({ type: 'object', tag: Symbol('s') })],
    ['undefined', () => ({ type: 'object', extra: undefined })],
    ['NaN', () => ({ type: 'object', maximum: NaN })],
    ['a Map', () => ({ type: 'object', props: new Map() })],
    ['a Date', () => ({ type: 'object', since: new Date(0) })],
    ['a class instance', () => ({ type: 'object', x: new (class Box {})() })],
    [
      'a cycle',
      () => {
        const p: Record<string, unknown> = { type: 'object' }
        p.self = p
        return p
      },
    ],
    [
      'a throwing getter',
      () =>
        Object.defineProperty({ type: 'object' }, 'bad', {
          enumerable: true,
          get: () => {
            throw new Error('getter')
          },
        }),
    ],
  ])('DEF-4 parameters containing %s are rejected at registration', (_label, make) => {
    const registry = createRegistry()
    expect(() => registry.register(tool({ parameters: asAny<JsonValue>(make()) }))).toThrow()
    expect(registry.schemas()).toEqual([])
  })

  it('DEF-4 schemas() never throws, even after the registered definition is made unreadable', () => {
    const params: Record<string, unknown> = { type: 'object', properties: {} }
    const def: Record<string, unknown> = { ...tool(), parameters: params }
    const registry = createRegistry()
    registry.register(asAny<ToolDefinition>(def))
    params.big = 1n
    params.self = params
    for (const field of ['name', 'description', 'parameters']) {
      Object.defineProperty(def, field, {
        get: () => {
          throw new Error('unreadable')
        },
      })
    }
    expect(() => registry.schemas()).not.toThrow()
    expect(registry.schemas()).toEqual([{ name: 'echo', description: 'Echoes a fixed value.', parameters: { type: 'object', properties: {} } }])
  })

  it('DEF-5 a defineTool tool ends a call whose arguments violate parameters as INVALID_ARGS before its body runs', async () => {
    const ran: JsonValue[] = []
    const registry = createRegistry()
    registry.register(defineTool(tool({ parameters: numberParams, execute: async (args) => (ran.push(args), {}) })))
    const missing = await registry.execute(call('echo', {}))
    const wrongType = await registry.execute(call('echo', { n: 'one' }))
    expect(errorCode(missing)).toBe('INVALID_ARGS')
    expect(errorCode(wrongType)).toBe('INVALID_ARGS')
    expect(ran).toEqual([])
    const valid = await registry.execute(call('echo', { n: 1 }))
    expect(valid.isError).toBe(false)
    expect(ran).toEqual([{ n: 1 }])
  })

  it('DEF-5 a defineTool classifier answers exclusive for invalid arguments, even when the author says true', () => {
    const registry = createRegistry()
    registry.register(
      defineTool(tool({ parameters: numberParams, isConcurrencySafe: () => true })),
    )
    expect(registry.executionMode(call('echo', {}))).toEqual({ kind: 'exclusive' })
    expect(registry.executionMode(call('echo', { n: 'x' }))).toEqual({ kind: 'exclusive' })
    expect(registry.executionMode(call('echo', { n: 2 }))).toEqual({ kind: 'parallel' })
  })

  it('DEF-5 a raw definition owns its own validation: the registry runs its body with arguments that violate parameters', async () => {
    const ran: JsonValue[] = []
    const registry = createRegistry()
    registry.register(tool({ parameters: numberParams, execute: async (args) => (ran.push(args), {}) }))
    const result = await registry.execute(call('echo', { n: 'one' }))
    expect(result.isError).toBe(false)
    expect(ran).toEqual([{ n: 'one' }])
  })
})
