import { describe, expect, it } from 'vitest'
import { createRegistry } from '../index.js'
import { call, tool } from './helpers.js'
import { errorCode } from './helpers-policy.js'

describe('SCP: scopes', () => {
  /** A registry with a global `echo` and an `echo` registered for agent `a`, each recording its runs. */
  function shadowed() {
    const a = { name: 'A' }
    const ran: string[] = []
    const registry = createRegistry()
    registry.register(tool({ description: 'global', execute: async () => (ran.push('global'), {}) }))
    const dispose = registry.register(tool({ description: 'for A', execute: async () => (ran.push('A'), {}) }), { agent: a })
    return { registry, a, ran, dispose }
  }

  it("SCP-1 a tool registered for agent A shadows the same-named global tool for A's calls", async () => {
    const { registry, a, ran } = shadowed()
    const result = await registry.execute(call('echo', {}, { agent: a }))
    expect(result.isError).toBe(false)
    expect(ran).toEqual(['A'])
  })

  it('SCP-1 other agents, look-alike keys and calls without agent still see the global tool', async () => {
    const { registry, ran } = shadowed()
    await registry.execute(call('echo', {}, { agent: { name: 'B' } }))
    await registry.execute(call('echo', {}, { agent: { name: 'A' } }))
    await registry.execute(call('echo'))
    expect(ran).toEqual(['global', 'global', 'global'])
  })

  it('SCP-1 the model-visible list shows A its own tool in place of the global one, and others the global one', () => {
    const { registry, a } = shadowed()
    expect(registry.schemas({ agent: a }).map((s) => s.description)).toEqual(['for A'])
    expect(registry.schemas({ agent: {} }).map((s) => s.description)).toEqual(['global'])
    expect(registry.schemas().map((s) => s.description)).toEqual(['global'])
  })

  it("SCP-1 a tool registered only for agent A is unknown to everyone else", async () => {
    const a = {}
    const registry = createRegistry()
    registry.register(tool({ name: 'private' }), { agent: a })
    expect((await registry.execute(call('private', {}, { agent: a }))).isError).toBe(false)
    const other = await registry.execute(call('private', {}, { agent: {} }))
    const none = await registry.execute(call('private'))
    expect(errorCode(other)).toBe('UNKNOWN_TOOL')
    expect(errorCode(none)).toBe('UNKNOWN_TOOL')
    expect(registry.schemas()).toEqual([])
  })

  it("SCP-1 disposing A's tool makes the global tool visible to A again", async () => {
    const { registry, a, ran, dispose } = shadowed()
    dispose()
    await registry.execute(call('echo', {}, { agent: a }))
    expect(ran).toEqual(['global'])
  })

  it("SCP-2 a guard registered for A applies to A's calls only", async () => {
    const a = { name: 'A' }
    const ran: string[] = []
    const registry = createRegistry()
    registry.register(tool({ execute: async (_args, exec) => (ran.push(exec.callId), {}) }))
    registry.guard(() => 'A may not', { agent: a })
    const fromA = call('echo', {}, { agent: a })
    const fromB = call('echo', {}, { agent: { name: 'B' } })
    const lookalike = call('echo', {}, { agent: { name: 'A' } })
    const noAgent = call('echo')
    const results = []
    for (const input of [fromA, fromB, lookalike, noAgent]) results.push(await registry.execute(input))
    expect(results.map((r) => r.isError)).toEqual([true, false, false, false])
    expect(ran).toEqual([fromB.callId, lookalike.callId, noAgent.callId])
  })

  it("SCP-2 a guard registered for A sees only A's calls, while a global guard sees all", async () => {
    const a = {}
    const b = {}
    const seen: string[] = []
    const registry = createRegistry()
    registry.register(tool())
    registry.guard((exec) => (seen.push(`A-guard:${exec.callId}`), undefined), { agent: a })
    registry.guard((exec) => (seen.push(`global:${exec.callId}`), undefined))
    const fromA = call('echo', {}, { agent: a })
    const fromB = call('echo', {}, { agent: b })
    await registry.execute(fromA)
    await registry.execute(fromB)
    expect(seen).toEqual([`A-guard:${fromA.callId}`, `global:${fromA.callId}`, `global:${fromB.callId}`])
  })
})
