import { describe, expect, it } from 'vitest'
import type { ToolDefinition, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry, defineTool, type ToolRegistry } from '../index.js'
import { call, deferred, tool } from './helpers.js'
import { asJson, badBlock, nonLossless, numberOutput } from './helpers-outcome.js'

/** Registers a `{ n }` tool plus whatever `inject` adds, runs one call, returns outcome and observed. */
async function runWith(
  inject: (registry: ToolRegistry, bad: unknown) => void,
  bad: unknown,
  overrides: Partial<ToolDefinition> = {},
) {
  const registry = createRegistry()
  registry.register(tool({ output: numberOutput, execute: async () => ({ n: 1 }), ...overrides }))
  inject(registry, bad)
  const observed: ToolExecutionResult[] = []
  registry.onResult((_exec, result) => {
    observed.push(result)
  })
  const result = await registry.execute(call('echo'))
  return { result, observed }
}

const badMessage = (bad: unknown) => ({ role: 'user' as const, content: [badBlock(bad)] })

const sources: [string, (bad: unknown) => Promise<{ result: ToolExecutionResult; observed: ToolExecutionResult[] }>][] = [
  [
    'the tool meta',
    (bad) => runWith(() => undefined, bad, { output: { ...numberOutput, presentationMeta: () => asJson({ bad }) } }),
  ],
  [
    'the tool content',
    (bad) => runWith(() => undefined, bad, { output: { ...numberOutput, render: () => [badBlock(bad)] } }),
  ],
  [
    'a deferred context',
    (bad) =>
      runWith(() => undefined, bad, {
        execute: async (_args, exec) => {
          exec.deferContext(badMessage(bad))
          return { n: 1 }
        },
      }),
  ],
  [
    'a deferred context of a body a wrapper left running beside its made-up success',
    (bad) =>
      runWith(
        (registry) => {
          registry.onExecute(async (_exec, next) => {
            void next()
            return { isError: false, value: { n: 2 }, content: [] }
          })
        },
        bad,
        {
          execute: async (_args, exec) => {
            await Promise.resolve()
            exec.deferContext(badMessage(bad))
            return { n: 1 }
          },
        },
      ),
  ],
  [
    'a wrapper-mutated meta',
    (bad) =>
      runWith((registry) => {
        registry.onExecute(async (_exec, next) => {
          const result = await next()
          ;(result as { meta?: unknown }).meta = { bad }
          return result
        })
      }, bad),
  ],
  [
    'a wrapper-mutated content',
    (bad) =>
      runWith((registry) => {
        registry.onExecute(async (_exec, next) => {
          const result = await next()
          result.content.push(badBlock(bad))
          return result
        })
      }, bad),
  ],
  [
    'a post-execute content',
    (bad) =>
      runWith((registry) => {
        registry.onPostExecute(async () => ({ kind: 'accept', content: [badBlock(bad)] }))
      }, bad),
  ],
  [
    'a post-execute context',
    (bad) =>
      runWith((registry) => {
        registry.onPostExecute(async () => ({ kind: 'accept', additionalContexts: [badMessage(bad)] }))
      }, bad),
  ],
  [
    'a post-execute block feedback',
    (bad) =>
      runWith((registry) => {
        registry.onPostExecute(async () => ({ kind: 'block', feedback: [badBlock(bad)] }))
      }, bad),
  ],
  ['the finalizer output', (bad) => runWith(() => undefined, bad, { finalizeContent: () => [badBlock(bad)] })],
]

describe('META: nothing non-serialisable is published', () => {
  describe.each(sources)('from %s', (_source, run) => {
    it.each(nonLossless())('META-1 %s turns the outcome into an error before tools/result', async (_label, bad) => {
      const { result, observed } = await run(bad)
      expect(result.isError).toBe(true)
      expect(observed).toHaveLength(1)
      expect(observed[0]).toBe(result)
      expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result)
    })
  })

  it('META-1 a thrown non-string code is not published', async () => {
    const { result } = await runWith(() => undefined, undefined, {
      execute: async () => {
        throw Object.assign(new Error('failed'), { code: 1n })
      },
    })
    expect(result.isError).toBe(true)
    expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result)
  })

  it('META-1 a wrapper-made error with a non-lossless message and content publishes only lossless JSON', async () => {
    const { result } = await runWith((registry) => {
      registry.onExecute(async () => asJson({
        isError: true,
        error: { message: 1n, code: Symbol('c') },
        content: [badBlock(NaN)],
      }) as unknown as ToolExecutionResult)
    }, undefined)
    expect(result.isError).toBe(true)
    expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result)
  })

  it('META-2 every kind of outcome survives a JSON round trip unchanged', async () => {
    const outcomes: ToolExecutionResult[] = []
    const registry = createRegistry({ approval: { request: () => 'rejected' } })
    registry.onResult((_exec, result) => {
      outcomes.push(result)
    })
    const context = { role: 'user' as const, content: [{ type: 'text' as const, text: 'ctx' }] }
    registry.register(
      tool({
        name: 'rich',
        output: { ...numberOutput, presentationMeta: (_args, value) => ({ card: value, list: [1, 'a', null, true] }) },
        execute: async (_args, exec) => {
          exec.deferContext(context)
          exec.concludeTurn()
          return { n: 1.5 }
        },
      }),
    )
    registry.register(tool({ name: 'fails', execute: async () => Promise.reject(Object.assign(new Error('x'), { code: 'E' })) }))
    registry.register(tool({ name: 'badOutput', output: numberOutput, execute: async () => ({ n: 'x' }) }))
    registry.register(tool({ name: 'denied' }))
    registry.register(tool({ name: 'asks' }))
    registry.register(tool({ name: 'blocked' }))
    registry.register(tool({ name: 'finalized', finalizeContent: () => [{ type: 'image', mimeType: 'image/png', data: 'AA==' }] }))
    registry.register(defineTool(tool({ name: 'typed', parameters: { type: 'object', required: ['n'] } })))
    const started = deferred()
    const release = deferred()
    registry.register(
      tool({
        name: 'slow',
        execute: async () => {
          started.resolve()
          await release.promise
          return {}
        },
      }),
    )
    registry.onPreExecute(async (exec, next) => {
      if (exec.name === 'denied') return { kind: 'deny', reason: 'no' }
      if (exec.name === 'asks') return { kind: 'ask', reason: 'sure?' }
      return next()
    })
    registry.onPostExecute(async (exec, _result, next) =>
      exec.name === 'blocked' ? { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] } : next(),
    )

    await registry.execute(call('rich'))
    await registry.execute(call('fails'))
    await registry.execute(call('badOutput'))
    await registry.execute(call('denied'))
    await registry.execute(call('asks', {}, { agent: {} }))
    await registry.execute(call('blocked'))
    await registry.execute(call('finalized'))
    await registry.execute(call('typed', {}))
    await registry.execute(call('missing'))
    await registry.execute(call('rich', { n: 1n }))
    await registry.execute(call('rich', {}, { signal: AbortSignal.abort() }))
    const controller = new AbortController()
    const pending = registry.execute(call('slow', {}, { signal: controller.signal }))
    await started.promise
    controller.abort()
    release.resolve()
    await pending

    expect(outcomes).toHaveLength(12)
    for (const outcome of outcomes) {
      expect(JSON.parse(JSON.stringify(outcome))).toStrictEqual(outcome)
    }
  })
})
