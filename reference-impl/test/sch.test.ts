import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolDefinition } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { tool } from './helpers.js'
import { asAny } from './helpers-policy.js'

const WHITELIST = ['description', 'name', 'parameters']
const ownKeys = (entry: unknown): string[] => Reflect.ownKeys(entry as object).map(String).sort()

/** A definition carrying every host-only and presentation field, plus unknown extras of every kind. */
function loadedDefinition(): ToolDefinition {
  const def = tool({
    name: 'loaded',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    finalizeContent: () => undefined,
    timeoutMs: 100,
    isConcurrencySafe: () => true,
    presentCall: () => null,
    presentResult: () => null,
  })
  Object.assign(def, { secret: 'host-only', handler: () => 1 })
  Object.defineProperty(def, 'hidden', { value: 'non-enumerable', enumerable: false })
  Object.defineProperty(def, Symbol('sym'), { value: 'symbol', enumerable: true })
  return def
}

describe('SCH: what the model sees', () => {
  it('SCH-1 each entry has exactly the own keys name, description and parameters', () => {
    const registry = createRegistry()
    registry.register(loadedDefinition())
    registry.register(tool({ name: 'plain' }))
    const entries = registry.schemas()
    expect(entries).toHaveLength(2)
    for (const entry of entries) expect(ownKeys(entry)).toEqual(WHITELIST)
    expect(entries[0]).toEqual({
      name: 'loaded',
      description: 'Echoes a fixed value.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    })
  })

  it('SCH-1 fields added to the definition after registration never appear', () => {
    const def = tool()
    const registry = createRegistry()
    registry.register(def)
    Object.assign(def, { extra: 'later', timeoutMs: 5, presentCall: () => null })
    Object.defineProperty(def, Symbol('later'), { value: 1, enumerable: true })
    const [entry] = registry.schemas()
    expect(ownKeys(entry)).toEqual(WHITELIST)
  })

  it('SCH-1 an agent-scoped and a shadowing tool are projected with the same whitelist', () => {
    const agent = {}
    const registry = createRegistry()
    registry.register(tool())
    registry.register(asAny<ToolDefinition>({ ...loadedDefinition(), name: 'echo' }), { agent })
    registry.register(loadedDefinition(), { agent })
    const entries = registry.schemas({ agent })
    expect(entries.map((e) => e.name)).toEqual(['echo', 'loaded'])
    for (const entry of entries) expect(ownKeys(entry)).toEqual(WHITELIST)
  })

  it('SCH-2 mutating the returned parameters changes nothing later', () => {
    const registry = createRegistry()
    registry.register(tool({ parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }))
    const first = registry.schemas()[0]!
    const params = first.parameters as Record<string, JsonValue>
    ;(params.properties as Record<string, JsonValue>).q = { type: 'number' }
    ;(params.required as JsonValue[]).push('z')
    params.injected = true
    first.name = 'renamed'
    expect(registry.schemas()).toEqual([
      {
        name: 'echo',
        description: 'Echoes a fixed value.',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    ])
  })

  it('SCH-2 parameters is detached from the definition: mutating the registered object changes nothing', () => {
    const parameters = { type: 'object', properties: { q: { type: 'string' } } }
    const registry = createRegistry()
    registry.register(tool({ parameters }))
    parameters.properties.q.type = 'number'
    Object.assign(parameters, { added: 1 })
    const [entry] = registry.schemas()
    expect(entry?.parameters).not.toBe(parameters)
    expect(entry?.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } })
  })

  it('SCH-2 functions or symbols inside a definition never leak into the projection', () => {
    const registry = createRegistry()
    const attempts = [
      { type: 'object', check: () => true },
      { type: 'object', tag: Symbol('t') },
      { type: 'object', [Symbol('k')]: 'v' },
      { type: 'object', properties: { nested: { default: () => 1 } } },
    ]
    attempts.forEach((parameters, i) => {
      try {
        registry.register(tool({ name: `t${i}`, parameters: asAny<JsonValue>(parameters) }))
      } catch {
        // Rejecting such parameters at registration is the recommended answer (DEF-4).
      }
    })
    registry.register(loadedDefinition())
    const entries = registry.schemas()
    expect(JSON.parse(JSON.stringify(entries))).toEqual(entries)
    const walk = (value: unknown): void => {
      expect(typeof value).not.toBe('function')
      expect(typeof value).not.toBe('symbol')
      if (typeof value === 'object' && value !== null) {
        expect(Object.getOwnPropertySymbols(value)).toEqual([])
        Object.values(value).forEach(walk)
      }
    }
    walk(entries)
  })

  it('SCH-3 the projection is deterministic: repeated calls are deep-equal and never share parameters', () => {
    const registry = createRegistry()
    registry.register(tool({ name: 'a', parameters: { type: 'object', properties: { x: { type: 'string' } } } }))
    registry.register(tool({ name: 'b' }))
    const first = registry.schemas()
    const second = registry.schemas()
    expect(second).toEqual(first)
    expect(second.map((s) => s.name)).toEqual(['a', 'b'])
    expect(second[0]?.parameters).not.toBe(first[0]?.parameters)
  })

  it('SCH-3 two registries with the same registrations in the same order project deep-equal lists', () => {
    const build = () => {
      const registry = createRegistry()
      registry.register(tool({ name: 'a', description: 'A' }))
      registry.register(loadedDefinition())
      registry.register(tool({ name: 'c', parameters: { type: 'object', required: ['k'] } }))
      return registry.schemas()
    }
    expect(build()).toEqual(build())
  })
})
