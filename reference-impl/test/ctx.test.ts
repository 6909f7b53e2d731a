import { describe, expect, it } from 'vitest'
import type { ToolDefinition, ToolExecutionResult, UserMessage } from '../../harness/contract/spec.js'
import { codeProgram, createRegistry } from '../index.js'
import { call, deferred, flush, tool } from './helpers.js'
import { codeOf, numberOutput } from './helpers-outcome.js'

const message = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] })

/** A `{ n }` tool whose body concludes the turn and then does what `overrides` say. */
function concluding(overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return tool({
    output: numberOutput,
    execute: async (_args, exec) => {
      exec.concludeTurn()
      return { n: 1 }
    },
    ...overrides,
  })
}

describe('CTX: deferContext and concludeTurn', () => {
  it('CTX-1 deferred contexts appear in order in additionalContexts of a success', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          exec.deferContext(message('first'))
          await flush()
          exec.deferContext(message('second'))
          exec.deferContext(message('third'))
          return {}
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(result.additionalContexts).toEqual([message('first'), message('second'), message('third')])
  })

  it('CTX-1 deferred contexts appear in order on a tool error too', async () => {
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          exec.deferContext(message('first'))
          exec.deferContext(message('second'))
          throw Object.assign(new Error('failed'), { code: 'E_TOOL' })
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(codeOf(result)).toBe('E_TOOL')
    expect(result.additionalContexts).toEqual([message('first'), message('second')])
  })

  it('CTX-1 a deferred context is a detached copy delivered only with the outcome', async () => {
    const deferredMessage = message('original')
    const seenByObserver: ToolExecutionResult[] = []
    const registry = createRegistry()
    registry.register(
      tool({
        execute: async (_args, exec) => {
          exec.deferContext(deferredMessage)
          return {}
        },
      }),
    )
    registry.onResult((_exec, result) => {
      seenByObserver.push(result)
    })
    const result = await registry.execute(call('echo'))
    ;(deferredMessage.content[0] as { text: string }).text = 'mutated later'
    expect(result.additionalContexts).toEqual([message('original')])
    expect(seenByObserver[0]).toBe(result)
  })

  it('CTX-1 a call whose body deferred nothing carries no contexts', async () => {
    const registry = createRegistry()
    registry.register(tool())
    const result = await registry.execute(call('echo'))
    expect(result.additionalContexts ?? []).toEqual([])
  })

  it('CTX-2 a success whose body concluded carries concludesTurn: true', async () => {
    const registry = createRegistry()
    registry.register(concluding())
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, concludesTurn: true })
  })

  it('CTX-2 a success whose body did not conclude carries no concludesTurn', async () => {
    const registry = createRegistry()
    registry.register(tool())
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a body that concluded and then threw does not conclude the turn', async () => {
    const registry = createRegistry()
    registry.register(
      concluding({
        execute: async (_args, exec) => {
          exec.concludeTurn()
          throw new Error('failed')
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a concluded body whose value is invalid does not conclude the turn', async () => {
    const registry = createRegistry()
    registry.register(
      concluding({
        execute: async (_args, exec) => {
          exec.concludeTurn()
          return { n: 'x' }
        },
      }),
    )
    const result = await registry.execute(call('echo'))
    expect(codeOf(result)).toBe('INVALID_TOOL_OUTPUT')
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a concluded success that post-execute blocks does not conclude the turn', async () => {
    const registry = createRegistry()
    registry.register(concluding())
    registry.onPostExecute(async () => ({ kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(true)
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a concluded success that the caller aborted does not conclude the turn', async () => {
    const controller = new AbortController()
    const started = deferred()
    const release = deferred()
    const registry = createRegistry()
    registry.register(
      concluding({
        execute: async (_args, exec) => {
          exec.concludeTurn()
          started.resolve()
          await release.promise
          return { n: 1 }
        },
      }),
    )
    const pending = registry.execute(call('echo', {}, { signal: controller.signal }))
    await started.promise
    controller.abort()
    release.resolve()
    const result = await pending
    expect(codeOf(result)).toBe('ABORTED')
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a success a wrapper made up without running the body does not conclude the turn', async () => {
    const registry = createRegistry()
    registry.register(concluding())
    registry.onExecute(async () => ({ isError: false, value: { n: 2 }, content: [] }))
    const result = await registry.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect('concludesTurn' in result).toBe(false)
  })

  it('CTX-2 a concluded success keeps concludesTurn through a post-execute value replacement and the finalizer', async () => {
    const registry = createRegistry()
    registry.register(concluding({ finalizeContent: () => [{ type: 'text', text: 'final' }] }))
    registry.onPostExecute(async () => ({ kind: 'accept', value: { n: 3 } }))
    const result = await registry.execute(call('echo'))
    expect(result).toMatchObject({ isError: false, value: { n: 3 }, concludesTurn: true })
  })

  describe('through the code transport', () => {
    /** A code-mode registry with a 'finish' tool that concludes; `policy` adds hooks. */
    async function runFinish(
      policy: (registry: ReturnType<typeof createRegistry>) => void = () => undefined,
      finish: Partial<ToolDefinition> = {},
    ) {
      const registry = createRegistry({ mode: 'code' })
      registry.register(concluding({ name: 'finish', ...finish }))
      registry.register(tool({ name: 'plain' }))
      policy(registry)
      const subResults: ToolExecutionResult[] = []
      registry.onResult((exec, result) => {
        if (exec.name === 'finish') subResults.push(result)
      })
      const program = codeProgram([
        { name: 'plain', arguments: {} },
        { name: 'finish', arguments: {} },
      ])
      const result = await registry.execute(call('run_code', program, { agent: {} }))
      return { result, subResults }
    }

    it('CTX-3 run_code concludes the turn when a sub-call ends as a success carrying concludesTurn', async () => {
      const { result, subResults } = await runFinish()
      expect(subResults).toHaveLength(1)
      expect(subResults[0]).toMatchObject({ isError: false, concludesTurn: true })
      expect(result).toMatchObject({ isError: false, concludesTurn: true })
    })

    it('CTX-3 a sub-call blocked by post-execute cannot conclude the outer turn', async () => {
      const { result, subResults } = await runFinish((registry) => {
        registry.onPostExecute(async (exec, _result, next) =>
          exec.name === 'finish' ? { kind: 'block', feedback: [{ type: 'text', text: 'no' }] } : next(),
        )
      })
      expect(subResults[0]?.isError).toBe(true)
      expect(result.isError).toBe(false)
      expect('concludesTurn' in result).toBe(false)
    })

    it('CTX-3 a sub-call denied by a guard cannot conclude the outer turn', async () => {
      const { result, subResults } = await runFinish((registry) => {
        registry.guard((exec) => (exec.name === 'finish' ? 'no' : undefined))
      })
      expect(subResults[0]?.isError).toBe(true)
      expect(result.isError).toBe(false)
      expect('concludesTurn' in result).toBe(false)
    })

    it('CTX-3 a sub-call whose concluded value fails output.schema cannot conclude the outer turn', async () => {
      const { result, subResults } = await runFinish((registry) => {
        registry.onPostExecute(async (exec, _result, next) =>
          exec.name === 'finish' ? { kind: 'accept', value: { n: 'x' } } : next(),
        )
      })
      expect(codeOf(subResults[0]!)).toBe('INVALID_TOOL_OUTPUT')
      expect(result.isError).toBe(false)
      expect('concludesTurn' in result).toBe(false)
    })

    it('CTX-3 a sub-call whose finalizer throws cannot conclude the outer turn', async () => {
      const { result, subResults } = await runFinish(undefined, {
        finalizeContent: () => {
          throw new Error('finalizer broke')
        },
      })
      expect(subResults[0]?.isError).toBe(true)
      expect(result.isError).toBe(false)
      expect('concludesTurn' in result).toBe(false)
    })
  })
})
