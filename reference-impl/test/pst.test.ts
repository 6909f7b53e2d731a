import { describe, expect, it } from 'vitest'
import type { PostToolDecision, ToolDefinition, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, tool } from './helpers.js'
import { codeOf, isDeepFrozen, numberOutput } from './helpers-outcome.js'

type PostListener = Parameters<ReturnType<typeof createRegistry>['onPostExecute']>[0]

/** A registry with one `{ n }` tool returning n=1 (or what `overrides` says) and one post listener. */
function withPost(listener: PostListener, overrides: Partial<ToolDefinition> = {}) {
  const registry = createRegistry()
  registry.register(tool({ output: numberOutput, execute: async () => ({ n: 1 }), ...overrides }))
  registry.onPostExecute(listener)
  return registry
}

const decide = (decision: unknown): PostListener => async () => decision as PostToolDecision

describe('PST: tools/post-execute', () => {
  it('PST-1 a listener sees the result deep-frozen', async () => {
    const seen: ToolExecutionResult[] = []
    const registry = withPost(async (_exec, result, next) => {
      seen.push(result)
      return next()
    })
    await registry.execute(call('echo'))
    expect(seen).toHaveLength(1)
    expect(isDeepFrozen(seen[0])).toBe(true)
  })

  it('PST-1 a listener cannot mutate the result it sees', async () => {
    const registry = withPost(async (_exec, result, next) => {
      expect(() => {
        ;(result as { isError: boolean }).isError = true
      }).toThrow(TypeError)
      expect(() => {
        result.content.push({ type: 'text', text: 'sneaked in' })
      }).toThrow(TypeError)
      return next()
    })
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 }, content: [{ type: 'text', text: 'n=1' }] })
  })

  it('PST-1 accept keeps the result', async () => {
    const registry = withPost(decide({ kind: 'accept' }))
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 }, content: [{ type: 'text', text: 'n=1' }] })
  })

  it('PST-1 accept with content replaces the content and keeps the value', async () => {
    const registry = withPost(decide({ kind: 'accept', content: [{ type: 'text', text: 'rewritten' }] }))
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 }, content: [{ type: 'text', text: 'rewritten' }] })
  })

  it('PST-1 accept with a value replaces the value and re-renders the content', async () => {
    const registry = withPost(decide({ kind: 'accept', value: { n: 9 } }), {
      output: { ...numberOutput, presentationMeta: (_args, value) => ({ card: value }) },
    })
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({
      isError: false,
      value: { n: 9 },
      content: [{ type: 'text', text: 'n=9' }],
      meta: { card: { n: 9 } },
    })
  })

  it('PST-1 a replacement value is re-validated against output.schema', async () => {
    const registry = withPost(decide({ kind: 'accept', value: { n: 'nine' } }))
    const result = await registry.execute(call('echo'))
    expect(codeOf(result)).toBe('INVALID_TOOL_OUTPUT')
    expect('value' in result).toBe(false)
  })

  it('PST-1 block turns the outcome into an error whose content is the feedback', async () => {
    const feedback = [{ type: 'text' as const, text: 'blocked: secrets in output' }]
    const registry = withPost(decide({ kind: 'block', feedback }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(result.content).toEqual(feedback)
    expect('value' in result).toBe(false)
  })

  it('PST-2 accept with content cannot turn a tool error into a success', async () => {
    const registry = withPost(decide({ kind: 'accept', content: [{ type: 'text', text: 'all good' }] }), {
      execute: async () => {
        throw Object.assign(new Error('failed'), { code: 'E_TOOL' })
      },
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
  })

  it('PST-2 replacing the value of a tool error is itself an error', async () => {
    const registry = withPost(decide({ kind: 'accept', value: { n: 1 } }), {
      execute: async () => {
        throw new Error('failed')
      },
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
  })

  it('PST-2 replacing the value of a denial cannot resurrect it', async () => {
    const log: string[] = []
    const registry = withPost(decide({ kind: 'accept', value: { n: 1 } }), {
      execute: async () => {
        log.push('body')
        return { n: 1 }
      },
    })
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
    expect(log).toEqual([])
  })

  it('PST-2 replacing the value of an aborted call cannot resurrect it', async () => {
    const controller = new AbortController()
    const started = deferred()
    const release = deferred()
    const registry = withPost(decide({ kind: 'accept', value: { n: 2 } }), {
      execute: async () => {
        started.resolve()
        await release.promise
        return { n: 1 }
      },
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await started.promise
    controller.abort()
    release.resolve()
    const result = await pending
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
  })

  it('PST-3 a decision replacing both value and content ends in an error outcome', async () => {
    const registry = withPost(decide({ kind: 'accept', value: { n: 2 }, content: [{ type: 'text', text: 'x' }] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'accept'],
    ['an unknown kind', { kind: 'allow' }],
    ['a block without feedback', { kind: 'block' }],
    ['a block with non-block feedback', { kind: 'block', feedback: 'no' }],
    ['an accept with string content', { kind: 'accept', content: 'text' }],
    ['an accept with a malformed block', { kind: 'accept', content: [{ type: 'text' }] }],
    ['an accept with non-lossless content', { kind: 'accept', content: [{ type: 'text', text: 'x', n: 1n }] }],
  ])('PST-3 a malformed decision (%s) ends in an error outcome', async (_label, decision) => {
    const registry = withPost(decide(decision))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
  })

  it('PST-3 a listener that throws synchronously ends in an error outcome', async () => {
    const registry = withPost((() => {
      throw new Error('post broke')
    }) as PostListener)
    expect((await registry.execute(call('echo'))).isError).toBe(true)
  })

  it('PST-3 a listener that rejects ends in an error outcome', async () => {
    const registry = withPost(async () => {
      throw new Error('post broke')
    })
    expect((await registry.execute(call('echo'))).isError).toBe(true)
  })

  it('PST-3 an inner listener that throws ends in an error even when the outer listener catches it', async () => {
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput, execute: async () => ({ n: 1 }) }))
    registry.onPostExecute(async (_exec, _result, next) => {
      try {
        return await next()
      } catch {
        return { kind: 'accept' }
      }
    })
    registry.onPostExecute(async () => {
      throw new Error('inner broke')
    })
    expect((await registry.execute(call('echo'))).isError).toBe(true)
  })

  it.each([
    ['accept content that is not an array', { kind: 'accept', content: 'text' }],
    ['block feedback with a malformed block', { kind: 'block', feedback: [{ type: 'video' }] }],
    ['contexts that are not user messages', { kind: 'accept', additionalContexts: [{ role: 'assistant', content: [] }] }],
  ])('OUT-5 a decision with %s (lossless JSON of the wrong shape) ends as INVALID_TOOL_OUTPUT', async (_label, decision) => {
    const registry = withPost(decide(decision))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(codeOf(result)).toBe('INVALID_TOOL_OUTPUT')
  })

  it('PST-3 a decision whose content is not lossless JSON stays a malformed decision (no code)', async () => {
    const registry = withPost(decide({ kind: 'accept', content: [{ type: 'text', text: 1n }] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(codeOf(result)).toBeUndefined()
  })
})
