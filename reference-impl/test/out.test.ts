import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, tool } from './helpers.js'
import { asJson, codeOf, nonLossless, numberOutput } from './helpers-outcome.js'

describe('OUT: the canonical output', () => {
  it.each(nonLossless())('OUT-1 a body value holding %s is INVALID_TOOL_OUTPUT, never a success', async (_label, bad) => {
    const registry = createRegistry()
    registry.register(tool({ output: { ...numberOutput, schema: {} }, execute: async () => asJson({ n: 1, bad }) }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(codeOf(result)).toBe('INVALID_TOOL_OUTPUT')
  })

  it.each([
    ['a wrong type', { n: 'one' }],
    ['a missing required key', {}],
    ['an extra key', { n: 1, extra: true }],
    ['a non-object', [1]],
  ])('OUT-1 a body value violating output.schema (%s) is INVALID_TOOL_OUTPUT', async (_label, value) => {
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput, execute: async () => value }))
    const result = await registry.execute(call('echo'))
    expect(codeOf(result)).toBe('INVALID_TOOL_OUTPUT')
    expect('value' in result).toBe(false)
  })

  it('OUT-1 the published value is a detached snapshot of what the body returned', async () => {
    const returned = { n: 1 }
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput, execute: async () => returned }))
    const result = await registry.execute(call('echo'))
    returned.n = 2
    expect(result.isError === false && result.value).toEqual({ n: 1 })
    expect(result.isError === false && result.value).not.toBe(returned)
  })

  it('OUT-2 content is output.render(args, value) and meta is output.presentationMeta(args, value)', async () => {
    const renderCalls: [JsonValue, JsonValue][] = []
    const registry = createRegistry()
    registry.register(
      tool({
        output: {
          schema: numberOutput.schema,
          render: (args, value) => {
            renderCalls.push([args, value])
            return [{ type: 'text', text: `${JSON.stringify(args)}->${JSON.stringify(value)}` }]
          },
          presentationMeta: (args, value) => ({ args, value }),
        },
        execute: async () => ({ n: 3 }),
      }),
    )
    const result = await registry.execute(call('echo', { q: 'x' }))
    expect(result).toMatchObject({
      isError: false,
      value: { n: 3 },
      content: [{ type: 'text', text: '{"q":"x"}->{"n":3}' }],
      meta: { args: { q: 'x' }, value: { n: 3 } },
    })
    expect(renderCalls).toEqual([[{ q: 'x' }, { n: 3 }]])
  })

  it('OUT-2 rendering the same value twice gives deep-equal content and meta', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        output: { ...numberOutput, presentationMeta: (_args, value) => ({ card: value }) },
        execute: async () => ({ n: 5 }),
      }),
    )
    const first = await registry.execute(call('echo', { a: 1 }))
    const second = await registry.execute(call('echo', { a: 1 }))
    expect(second.content).toEqual(first.content)
    expect(second.meta).toEqual(first.meta)
  })

  it('OUT-2 a render that throws is INVALID_TOOL_OUTPUT', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        output: {
          schema: {},
          render: () => {
            throw new Error('render broke')
          },
        },
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('INVALID_TOOL_OUTPUT')
  })

  it.each(nonLossless())('OUT-2 a render returning content with %s is INVALID_TOOL_OUTPUT', async (_label, bad) => {
    const registry = createRegistry()
    registry.register(
      tool({
        output: { schema: {}, render: () => [{ type: 'text', text: 'x', extra: bad }] as never },
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('INVALID_TOOL_OUTPUT')
  })

  it('OUT-2 a render returning something that is not content blocks is INVALID_TOOL_OUTPUT', async () => {
    const registry = createRegistry()
    registry.register(tool({ output: { schema: {}, render: () => 'plain string' as never } }))
    expect(codeOf(await registry.execute(call('echo')))).toBe('INVALID_TOOL_OUTPUT')
  })

  it('OUT-2 a presentationMeta that throws is INVALID_TOOL_OUTPUT', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        output: {
          ...numberOutput,
          presentationMeta: () => {
            throw new Error('meta broke')
          },
        },
        execute: async () => ({ n: 1 }),
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('INVALID_TOOL_OUTPUT')
  })

  it.each(nonLossless())(
    'OUT-2 a presentationMeta returning %s is INVALID_TOOL_OUTPUT',
    async (_label, bad) => {
      const registry = createRegistry()
      registry.register(
        tool({
          output: { ...numberOutput, presentationMeta: () => asJson({ bad }) },
          execute: async () => ({ n: 1 }),
        }),
      )
      expect(codeOf(await registry.execute(call('echo')))).toBe('INVALID_TOOL_OUTPUT')
    },
  )

  it.each([
    ['an Error', new Error('boom')],
    ['a string', 'boom'],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a plain object', { reason: 'boom' }],
    ['a symbol', Symbol('boom')],
    ['an object whose message getter throws', Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('no') } })],
  ])('OUT-3 a body throwing %s becomes an error outcome with model-readable text content', async (_label, thrown) => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          throw thrown
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(result.content.length).toBeGreaterThan(0)
    for (const block of result.content) {
      expect(block.type).toBe('text')
      expect(block.type === 'text' && typeof block.text).toBe('string')
    }
  })

  it('OUT-3 a body that throws synchronously (not a rejection) becomes an error outcome with text content', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: (() => {
          throw new Error('sync')
        }) as never,
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(result.content[0]?.type).toBe('text')
  })

  it('OUT-4 an Error thrown with its own string code keeps that code', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          throw Object.assign(new Error('no file'), { code: 'ENOENT' })
        },
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('ENOENT')
  })

  it('OUT-4 a plain object thrown with a string code keeps that code', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          throw { code: 'E_QUOTA', message: 'quota' }
        },
      }),
    )
    expect(codeOf(await registry.execute(call('echo')))).toBe('E_QUOTA')
  })
})
