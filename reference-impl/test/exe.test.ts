import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, tool } from './helpers.js'
import { numberOutput } from './helpers-outcome.js'

describe('EXE: tools/execute around-wrappers', () => {
  it('EXE-1 wrappers nest in registration order, the first registered outermost, the innermost next() runs the body', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          log.push('body')
          return {}
        },
      }),
    )
    registry.onExecute(async (_exec, next) => {
      log.push('outer:in')
      const result = await next()
      log.push('outer:out')
      return result
    })
    registry.onExecute(async (_exec, next) => {
      log.push('inner:in')
      const result = await next()
      log.push('inner:out')
      return result
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['outer:in', 'inner:in', 'body', 'inner:out', 'outer:out'])
  })

  it('EXE-1 a wrapper that returns without calling next() means neither inner wrappers nor the body run', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          log.push('body')
          return {}
        },
      }),
    )
    registry.onExecute(async () => {
      log.push('short-circuit')
      return { isError: true, error: { message: 'not today' }, content: [{ type: 'text', text: 'not today' }] }
    })
    registry.onExecute(async (_exec, next) => {
      log.push('inner')
      return next()
    })
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['short-circuit'])
  })

  it('EXE-1 the result next() gives a wrapper is the body result', async () => {
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput, execute: async () => ({ n: 7 }) }))
    const seen: ToolExecutionResult[] = []
    registry.onExecute(async (_exec, next) => {
      const result = await next()
      seen.push(result)
      return result
    })
    const result = await registry.execute(call('echo'))
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ isError: false, value: { n: 7 } })
    expect(result).toMatchObject({ isError: false, value: { n: 7 }, content: [{ type: 'text', text: 'n=7' }] })
  })

  it('EXE-2 a wrapper that replaces the signal with a never-aborting one cannot hide the caller abort from the body', async () => {
    const controller = new AbortController()
    const started = deferred()
    const release = deferred()
    let bodySignal: AbortSignal | undefined
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          bodySignal = exec.signal
          started.resolve()
          await release.promise
          return {}
        },
      }),
    )
    registry.onExecute(async (_exec, next) => next({ signal: new AbortController().signal }))
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await started.promise
    expect(bodySignal?.aborted).toBe(false)
    controller.abort()
    expect(bodySignal?.aborted).toBe(true)
    release.resolve()
    const result = await pending
    expect(result.isError && result.error.code).toBe('ABORTED')
  })

  it('EXE-2 a replacement signal reaches the body and its abort aborts the body signal', async () => {
    const replacement = new AbortController()
    const started = deferred()
    const release = deferred()
    let bodySignal: AbortSignal | undefined
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          bodySignal = exec.signal
          started.resolve()
          await release.promise
          return {}
        },
      }),
    )
    registry.onExecute(async (_exec, next) => next({ signal: replacement.signal }))
    const pending = registry.execute(call('echo'))
    await started.promise
    replacement.abort()
    expect(bodySignal?.aborted).toBe(true)
    release.resolve()
    await pending
  })

  it('EXE-2 only the signal may be replaced: other fields handed to next() change neither the body nor its arguments', async () => {
    const bodies: string[] = []
    const seenArgs: JsonValue[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        name: 'first',
        execute: async (args) => {
          bodies.push('first')
          seenArgs.push(args)
          return {}
        },
      }),
    )
    registry.register(
      tool({
        name: 'second',
        execute: async () => {
          bodies.push('second')
          return {}
        },
      }),
    )
    let wrapperArgs: JsonValue | undefined
    registry.onExecute(async (exec, next) => {
      wrapperArgs = exec.arguments
      const tamper = next as unknown as (o: Record<string, unknown>) => Promise<ToolExecutionResult>
      return tamper({ name: 'second', arguments: { x: 2 }, callId: 'other' })
    })
    const result = await registry.execute(call('first', { x: 1 }))
    expect(result.isError).toBe(false)
    expect(bodies).toEqual(['first'])
    expect(seenArgs[0]).toEqual({ x: 1 })
    expect(seenArgs[0]).toBe(wrapperArgs)
  })

  it('EXE-3 a wrapper that throws synchronously ends the call with an error outcome', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          log.push('body')
          return {}
        },
      }),
    )
    registry.onExecute(((): Promise<ToolExecutionResult> => {
      throw new Error('wrapper broke')
    }) as Parameters<typeof registry.onExecute>[0])
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect(log).toEqual([])
  })

  it('EXE-3 a wrapper that rejects after the body succeeded ends the call with an error outcome', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async () => {
          log.push('body')
          return {}
        },
      }),
    )
    registry.onExecute(async (_exec, next) => {
      await next()
      throw new Error('wrapper broke late')
    })
    const result = await registry.execute(call('echo'))
    expect(log).toEqual(['body'])
    expect(result.isError).toBe(true)
    expect('value' in result).toBe(false)
  })

  it('EXE-4 a made-up success that violates output.schema is INVALID_TOOL_OUTPUT and the body never runs', async () => {
    const log: string[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        output: numberOutput,
        execute: async () => {
          log.push('body')
          return { n: 1 }
        },
      }),
    )
    registry.onExecute(async () => ({ isError: false, value: { n: 'not a number' }, content: [] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError && result.error.code).toBe('INVALID_TOOL_OUTPUT')
    expect(log).toEqual([])
  })

  it('EXE-4 a valid made-up success is rendered by output.render, not published with the wrapper content', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        output: { ...numberOutput, presentationMeta: (_args, value) => ({ shown: (value as { n: number }).n }) },
        execute: async () => ({ n: 1 }),
      }),
    )
    registry.onExecute(async () => ({
      isError: false,
      value: { n: 42 },
      content: [{ type: 'text', text: 'made up by the wrapper' }],
    }))
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({
      isError: false,
      value: { n: 42 },
      content: [{ type: 'text', text: 'n=42' }],
      meta: { shown: 42 },
    })
  })

  it('EXE-4 a made-up success whose value is not lossless JSON is INVALID_TOOL_OUTPUT', async () => {
    const registry = createRegistry()
    registry.register(tool({ output: numberOutput }))
    registry.onExecute(async () => ({ isError: false, value: { n: 1n } as unknown as JsonValue, content: [] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError && result.error.code).toBe('INVALID_TOOL_OUTPUT')
  })
})
