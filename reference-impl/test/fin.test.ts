import { describe, expect, it } from 'vitest'
import type { ContentBlock, ToolDefinition, ToolExecution, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry, defineTool, type RegistryOptions } from '../index.js'
import { call, deferred, tool } from './helpers.js'
import { codeOf, isDeepFrozen, numberOutput } from './helpers-outcome.js'

/** A registry holding one tool whose finalizer records every result it is given. */
function setup(options: RegistryOptions = {}, overrides: Partial<ToolDefinition> = {}) {
  const finals: ToolExecutionResult[] = []
  const registry = createRegistry(options)
  registry.register(
    tool({
      ...overrides,
      finalizeContent: (_exec, result) => {
        finals.push(result)
        return undefined
      },
    }),
  )
  return { registry, finals }
}

type Run = { finals: ToolExecutionResult[]; result: ToolExecutionResult }

const outcomes: [string, boolean, () => Promise<Run>][] = [
  [
    'a success',
    false,
    async () => {
      const h = setup()
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a tool error',
    true,
    async () => {
      const h = setup({}, { execute: async () => Promise.reject(new Error('tool failed')) })
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a pre-execute denial',
    true,
    async () => {
      const h = setup()
      h.registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a refused approval',
    true,
    async () => {
      const h = setup({ approval: { request: () => 'rejected' } })
      h.registry.onPreExecute(async () => ({ kind: 'ask', reason: 'sure?' }))
      return { ...h, result: await h.registry.execute(call('echo', {}, { agent: {} })) }
    },
  ],
  [
    'an ask without an approval service',
    true,
    async () => {
      const h = setup()
      h.registry.onPreExecute(async () => ({ kind: 'ask' }))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a guard denial',
    true,
    async () => {
      const h = setup()
      h.registry.guard(() => 'denied by guard')
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'an abort at entry',
    true,
    async () => {
      const h = setup()
      return { ...h, result: await h.registry.execute(call('echo', {}, { signal: AbortSignal.abort() })) }
    },
  ],
  [
    'an abort during the body',
    true,
    async () => {
      const controller = new AbortController()
      const started = deferred()
      const release = deferred()
      const h = setup(
        {},
        {
          execute: async () => {
            started.resolve()
            await release.promise
            return {}
          },
        },
      )
      const pending = h.registry.execute(call('echo', {}, { signal: controller.signal }))
      await started.promise
      controller.abort()
      release.resolve()
      return { ...h, result: await pending }
    },
  ],
  [
    'invalid (non-lossless) arguments',
    true,
    async () => {
      const h = setup()
      return { ...h, result: await h.registry.execute(call('echo', { n: 1n })) }
    },
  ],
  [
    'arguments invalid for a defineTool tool',
    true,
    async () => {
      const finals: ToolExecutionResult[] = []
      const registry = createRegistry()
      registry.register(
        defineTool(
          tool({
            parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
            finalizeContent: (_exec, result) => {
              finals.push(result)
              return undefined
            },
          }),
        ),
      )
      return { finals, result: await registry.execute(call('echo', { n: 'x' })) }
    },
  ],
  [
    'a throwing pre-execute listener',
    true,
    async () => {
      const h = setup()
      h.registry.onPreExecute(async () => Promise.reject(new Error('listener broke')))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a throwing guard',
    true,
    async () => {
      const h = setup()
      h.registry.guard(() => {
        throw new Error('guard broke')
      })
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a throwing wrapper',
    true,
    async () => {
      const h = setup()
      h.registry.onExecute(async () => Promise.reject(new Error('wrapper broke')))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a throwing post-execute listener',
    true,
    async () => {
      const h = setup()
      h.registry.onPostExecute(async () => Promise.reject(new Error('post broke')))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'a post-execute block',
    true,
    async () => {
      const h = setup()
      h.registry.onPostExecute(async () => ({ kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] }))
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
  [
    'an invalid tool output',
    true,
    async () => {
      const h = setup({}, { output: numberOutput, execute: async () => ({ n: 'x' }) })
      return { ...h, result: await h.registry.execute(call('echo')) }
    },
  ],
]

describe('FIN: finalizeContent', () => {
  it('FIN-1 re-registering the tool mid-call does not change which finalizer runs', async () => {
    const log: string[] = []
    const started = deferred()
    const release = deferred()
    const registry = createRegistry()
    const dispose = registry.register(
      tool({
        execute: async () => {
          started.resolve()
          await release.promise
          return {}
        },
        finalizeContent: () => {
          log.push('v1')
          return undefined
        },
      }),
    )
    const pending = registry.execute(call('echo'))
    await started.promise
    dispose()
    registry.register(
      tool({
        finalizeContent: () => {
          log.push('v2')
          return undefined
        },
      }),
    )
    release.resolve()
    await pending
    expect(log).toEqual(['v1'])
    await registry.execute(call('echo'))
    expect(log).toEqual(['v1', 'v2'])
  })

  it('FIN-1 disposing the tool mid-call still runs the finalizer snapshotted at entry', async () => {
    const log: string[] = []
    const started = deferred()
    const release = deferred()
    const registry = createRegistry()
    const dispose = registry.register(
      tool({
        execute: async () => {
          started.resolve()
          await release.promise
          return {}
        },
        finalizeContent: () => {
          log.push('finalize')
          return [{ type: 'text', text: 'finalized' }]
        },
      }),
    )
    const pending = registry.execute(call('echo'))
    await started.promise
    dispose()
    release.resolve()
    const result = await pending
    expect(log).toEqual(['finalize'])
    expect(result.content).toEqual([{ type: 'text', text: 'finalized' }])
  })

  it.each(outcomes)('FIN-2 finalizeContent runs exactly once for %s', async (_label, isError, run) => {
    const { finals, result } = await run()
    expect(finals).toHaveLength(1)
    expect(finals[0]?.isError).toBe(isError)
    expect(result.isError).toBe(isError)
  })

  it('FIN-2 finalizeContent is not invoked for a code-mode direct call', async () => {
    const h = setup({ mode: 'code' })
    const result = await h.registry.execute(call('echo'))
    expect(codeOf(result)).toBe('UNKNOWN_TOOL')
    expect(h.finals).toEqual([])
  })

  it('FIN-3 the finalizer receives the frozen execution and the deep-frozen result', async () => {
    let bodyToken: unknown
    const seen: { exec: ToolExecution; result: ToolExecutionResult }[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          bodyToken = exec.token
          return { a: [1, { b: 2 }] }
        },
        finalizeContent: (exec, result) => {
          seen.push({ exec, result })
          return undefined
        },
      }),
    )
    await registry.execute(call('echo', { q: { deep: [1] } }))
    expect(seen).toHaveLength(1)
    const { exec, result } = seen[0]!
    expect(Object.isFrozen(exec)).toBe(true)
    expect(isDeepFrozen(exec.arguments)).toBe(true)
    expect(exec.token).toBe(bodyToken)
    expect(isDeepFrozen(result)).toBe(true)
  })

  it('FIN-3 returning undefined keeps the content', async () => {
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput, execute: async () => ({ n: 4 }), finalizeContent: () => undefined }))
    const result = await registry.execute(call('echo'))
    expect(result.content).toEqual([{ type: 'text', text: 'n=4' }])
  })

  it('FIN-3 returned blocks replace only the content of a success', async () => {
    const finalContent: ContentBlock[] = [{ type: 'text', text: 'final' }]
    const context = { role: 'user' as const, content: [{ type: 'text' as const, text: 'later' }] }
    const registry = createRegistry()
    registry.register(
      tool({
        output: { ...numberOutput, presentationMeta: (_args, value) => ({ card: value }) },
        execute: async (_args, exec) => {
          exec.deferContext(context)
          exec.concludeTurn()
          return { n: 4 }
        },
        finalizeContent: () => finalContent,
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result).toStrictEqual({
      isError: false,
      value: { n: 4 },
      content: finalContent,
      meta: { card: { n: 4 } },
      additionalContexts: [context],
      concludesTurn: true,
    })
  })

  it('FIN-3 returned blocks replace only the content of a failure: isError and the error stay', async () => {
    const context = { role: 'user' as const, content: [{ type: 'text' as const, text: 'later' }] }
    let sealed: ToolExecutionResult | undefined
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          exec.deferContext(context)
          throw Object.assign(new Error('failed'), { code: 'E_TOOL' })
        },
        finalizeContent: (_exec, result) => {
          sealed = result
          return [{ type: 'text', text: 'final' }]
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(result.isError && result.error).toEqual(sealed?.isError && sealed.error)
    expect(codeOf(result)).toBe('E_TOOL')
    expect(result.content).toEqual([{ type: 'text', text: 'final' }])
    expect(result.additionalContexts).toEqual([context])
    expect('value' in result).toBe(false)
  })

  it('FIN-4 a throwing finalizer is called once, execute resolves and the outcome is an error, not the success', async () => {
    let calls = 0
    const observed: ToolExecutionResult[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        output: numberOutput,
        execute: async () => ({ n: 1 }),
        finalizeContent: () => {
          calls++
          throw new Error('finalizer broke')
        },
      }),
    )
    registry.onResult((_exec, result) => {
      observed.push(result)
    })
    const result = await registry.execute(call('echo'))
    expect(calls).toBe(1)
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
    expect(result.content).not.toEqual([{ type: 'text', text: 'n=1' }])
    expect(observed).toHaveLength(1)
    expect(observed[0]).toBe(result)
  })

  it('FIN-4 a finalizer that throws on an error outcome is called once and the outcome stays an error', async () => {
    let calls = 0
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => Promise.reject(new Error('tool failed')),
        finalizeContent: () => {
          calls++
          throw new Error('finalizer broke')
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(calls).toBe(1)
    expect(result.isError).toBe(true)
  })
})
