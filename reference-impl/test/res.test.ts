import { describe, expect, it } from 'vitest'
import type { ToolExecution, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, tool } from './helpers.js'
import { isDeepFrozen, numberOutput } from './helpers-outcome.js'

const context = { role: 'user' as const, content: [{ type: 'text' as const, text: 'later' }] }

/** A registry whose tool succeeds with value, meta, a context and a conclusion, or throws when asked. */
function richRegistry() {
  const registry = createRegistry()
  registry.register(
    tool({
      output: { ...numberOutput, presentationMeta: (_args, value) => ({ card: { value } }) },
      execute: async (args, exec) => {
        exec.deferContext(context)
        exec.concludeTurn()
        if ((args as { fail?: boolean }).fail) throw Object.assign(new Error('failed'), { code: 'E_TOOL' })
        return { n: 1 }
      },
    }),
  )
  return registry
}

describe('RES: tools/result, the authoritative result', () => {
  it('RES-1 observers are notified exactly once with the very object execute resolves with', async () => {
    const registry = richRegistry()
    const first: ToolExecutionResult[] = []
    const second: ToolExecutionResult[] = []
    registry.onResult((_exec, result) => {
      first.push(result)
    })
    registry.onResult((_exec, result) => {
      second.push(result)
    })
    const result = await registry.execute(call('echo'))
    expect(first).toHaveLength(1)
    expect(second).toHaveLength(1)
    expect(first[0]).toBe(result)
    expect(second[0]).toBe(result)
  })

  it('RES-1 observers run after finalization and see the finalized content', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        finalizeContent: () => {
          log.push('finalize')
          return [{ type: 'text', text: 'final' }]
        },
      }),
    )
    let seen: ToolExecutionResult | undefined
    registry.onResult((_exec, result) => {
      log.push('result')
      seen = result
    })
    const result = await registry.execute(call('echo'))
    expect(log).toEqual(['finalize', 'result'])
    expect(seen?.content).toEqual([{ type: 'text', text: 'final' }])
    expect(seen).toBe(result)
  })

  it('RES-1 observers are notified exactly once for an unknown tool too', async () => {
    const registry = createRegistry()
    const seen: ToolExecutionResult[] = []
    registry.onResult((_exec, result) => {
      seen.push(result)
    })
    const result = await registry.execute(call('missing'))
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBe(result)
  })

  it('RES-2 observers see a deep-frozen result and a frozen execution with deep-frozen arguments', async () => {
    const registry = richRegistry()
    const seen: { exec: ToolExecution; result: ToolExecutionResult }[] = []
    registry.onResult((exec, result) => {
      seen.push({ exec, result })
    })
    await registry.execute(call('echo', { nested: { list: [1, { x: 2 }] } }))
    const { exec, result } = seen[0]!
    expect(result.additionalContexts).toHaveLength(1)
    expect(isDeepFrozen(result)).toBe(true)
    expect(Object.isFrozen(exec)).toBe(true)
    expect(isDeepFrozen(exec.arguments)).toBe(true)
  })

  it('RES-2 a failure is deep-frozen as well', async () => {
    const registry = richRegistry()
    const result = await registry.execute(call('echo', { fail: true }))
    expect(result.isError).toBe(true)
    expect(isDeepFrozen(result)).toBe(true)
  })

  it('RES-2 mutation attempts on the published result and execution fail and change nothing', async () => {
    const registry = richRegistry()
    let exec: ToolExecution | undefined
    registry.onResult((e) => {
      exec = e
    })
    const result = await registry.execute(call('echo', { a: 1 }))
    const before = structuredClone(result)
    const r = result as unknown as Record<string, unknown>
    expect(() => {
      r.isError = true
    }).toThrow(TypeError)
    expect(() => {
      r.error = { message: 'x' }
    }).toThrow(TypeError)
    expect(() => {
      ;(result.content as unknown[]).push({ type: 'text', text: 'more' })
    }).toThrow(TypeError)
    expect(() => {
      ;(result.meta as Record<string, unknown>).card = null
    }).toThrow(TypeError)
    expect(() => {
      delete r.value
    }).toThrow(TypeError)
    expect(result).toStrictEqual(before)
    const e = exec as unknown as Record<string, unknown>
    expect(() => {
      e.name = 'other'
    }).toThrow(TypeError)
    expect(() => {
      ;(e.arguments as Record<string, unknown>).a = 2
    }).toThrow(TypeError)
    expect(exec?.name).toBe('echo')
    expect(exec?.arguments).toEqual({ a: 1 })
  })

  it('RES-3 a success has value and no error', async () => {
    const result = await richRegistry().execute(call('echo'))
    expect(result.isError).toBe(false)
    expect('value' in result).toBe(true)
    expect('error' in result).toBe(false)
    expect(result.isError === false && result.concludesTurn).toBe(true)
  })

  it('RES-3 a failure has error and no value, and never concludesTurn even when the body concluded', async () => {
    const result = await richRegistry().execute(call('echo', { fail: true }))
    expect(result.isError).toBe(true)
    expect('error' in result).toBe(true)
    expect('value' in result).toBe(false)
    expect('concludesTurn' in result).toBe(false)
  })

  it('RES-3 a registry-made failure (unknown tool, denial) has error and no value', async () => {
    const registry = richRegistry()
    registry.guard((exec) => (exec.name === 'echo' ? 'no' : undefined))
    for (const result of [await registry.execute(call('missing')), await registry.execute(call('echo'))]) {
      expect(result.isError).toBe(true)
      expect(typeof (result.isError && result.error.message)).toBe('string')
      expect('value' in result).toBe(false)
      expect('concludesTurn' in result).toBe(false)
    }
  })

  it('RES-4 a throwing observer changes neither the outcome nor what later observers receive', async () => {
    const baseline = await richRegistry().execute(call('echo'))
    const registry = richRegistry()
    const later: ToolExecutionResult[] = []
    registry.onResult(() => {
      throw new Error('observer broke')
    })
    registry.onResult((_exec, result) => {
      later.push(result)
    })
    const result = await registry.execute(call('echo'))
    expect(result).toStrictEqual(baseline)
    expect(later).toHaveLength(1)
    expect(later[0]).toBe(result)
  })

  it('RES-4 an observer returning a rejected promise changes nothing', async () => {
    const registry = richRegistry()
    const later: ToolExecutionResult[] = []
    registry.onResult((() => Promise.reject(new Error('async observer broke'))) as unknown as () => void)
    registry.onResult((_exec, result) => {
      later.push(result)
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(later[0]).toBe(result)
  })
})
