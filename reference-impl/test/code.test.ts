import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolDefinition, ToolExecution } from '../../harness/contract/spec.js'
import { codeProgram, createRegistry, type ToolRegistry } from '../index.js'
import { call, tool, traceStages, tracedTool, type Stage } from './helpers.js'
import { codeOf, numberOutput } from './helpers-outcome.js'

/** Records `<tool name>:<stage>` for every stage of every call, including approval requests. */
function traceByName(registry: ToolRegistry, log: string[]): void {
  registry.onPreExecute(async (exec, next) => {
    log.push(`${exec.name}:pre`)
    return next()
  })
  registry.guard((exec) => {
    log.push(`${exec.name}:guard`)
    return undefined
  })
  registry.onExecute(async (exec, next) => {
    log.push(`${exec.name}:wrapper`)
    return next()
  })
  registry.onPostExecute(async (exec, _result, next) => {
    log.push(`${exec.name}:post`)
    return next()
  })
  registry.onResult((exec) => {
    log.push(`${exec.name}:result`)
  })
}

/** A tool whose body and finalizer record `<name>:body` and `<name>:finalize`. */
function namedTool(log: string[], overrides: Partial<ToolDefinition> & { name: string }): ToolDefinition {
  const base = tool(overrides)
  return {
    ...base,
    execute: (args, exec) => {
      log.push(`${base.name}:body`)
      return base.execute(args, exec)
    },
    finalizeContent: () => {
      log.push(`${base.name}:finalize`)
      return undefined
    },
  }
}

const FULL = ['pre', 'guard', 'wrapper', 'body', 'post', 'finalize', 'result']
const stagesOf = (log: string[], name: string) =>
  log.filter((entry) => entry.startsWith(`${name}:`)).map((entry) => entry.slice(name.length + 1))

describe('CODE: Code Mode', () => {
  it('CODE-1 a parent-less direct native call in code mode is UNKNOWN_TOOL and no stage but tools/result sees it', async () => {
    const log: Stage[] = []
    const approvals: string[] = []
    const registry = createRegistry({
      mode: 'code',
      approval: {
        request: () => {
          approvals.push('asked')
          return 'allowed-once'
        },
      },
    })
    registry.register(tracedTool(log, { name: 'native' }))
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    traceStages(registry, log)
    const result = await registry.execute(call('native', {}, { agent: {} }))
    expect(codeOf(result)).toBe('UNKNOWN_TOOL')
    expect(log).toEqual(['result'])
    expect(approvals).toEqual([])
  })

  it('CODE-1 a direct native call is indistinguishable from a call to a tool that does not exist', async () => {
    const agent = {}
    const withTool = createRegistry({ mode: 'code' })
    withTool.register(tool({ name: 'native' }))
    withTool.register(tool({ name: 'scoped' }), { agent })
    const without = createRegistry({ mode: 'code' })
    for (const name of ['native', 'scoped']) {
      const input = call(name, { a: 1 }, { agent })
      const direct = await withTool.execute(input)
      const missing = await without.execute({ ...input })
      expect(codeOf(direct)).toBe('UNKNOWN_TOOL')
      expect(direct).toStrictEqual(missing)
    }
  })

  it('CODE-2 a call carrying the parent token of an in-flight execution runs the full pipeline', async () => {
    const log: string[] = []
    const execs = new Map<string, ToolExecution>()
    const registry = createRegistry({ mode: 'code' })
    registry.register(namedTool(log, { name: 'inner', output: numberOutput, execute: async () => ({ n: 7 }) }))
    registry.register(
      namedTool(log, {
        name: 'composite',
        output: { schema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] },
        execute: async (_args, exec): Promise<JsonValue> => {
          const inner = await registry.execute(
            call('inner', {}, { parent: exec.token, agent: exec.agent, signal: exec.signal }),
          )
          return inner.isError ? { failed: inner.error.code ?? null } : { inner: inner.value }
        },
      }),
    )
    traceByName(registry, log)
    registry.onPreExecute(async (exec, next) => {
      execs.set(exec.name, exec)
      return next()
    })
    const result = await registry.execute(call('run_code', codeProgram([{ name: 'composite', arguments: {} }]), { agent: {} }))
    expect(result).toMatchObject({ isError: false, value: [{ value: { inner: { n: 7 } } }] })
    expect(stagesOf(log, 'inner')).toEqual(FULL)
    expect(stagesOf(log, 'composite')).toEqual(FULL)
    expect(execs.get('inner')?.parent).toBe(execs.get('composite')?.token)
    expect(execs.get('composite')?.parent).toBe(execs.get('run_code')?.token)
  })

  it('CODE-3 in code mode the model-facing tool list holds only run_code', async () => {
    const agent = {}
    const registry = createRegistry({ mode: 'code' })
    registry.register(tool({ name: 'native' }))
    registry.register(tool({ name: 'scoped' }), { agent })
    expect(registry.modelTools().map((t) => t.name)).toEqual(['run_code'])
    expect(registry.modelTools({ agent }).map((t) => t.name)).toEqual(['run_code'])
  })

  it('CODE-3 in both mode a parent-less native call runs the full pipeline', async () => {
    const log: Stage[] = []
    const registry = createRegistry({ mode: 'both' })
    registry.register(tracedTool(log, { name: 'native', output: numberOutput, execute: async () => ({ n: 1 }) }))
    traceStages(registry, log)
    const result = await registry.execute(call('native'))
    expect(result).toMatchObject({ isError: false, value: { n: 1 } })
    expect(log).toEqual(['pre', 'guard', 'wrapper', 'body', 'post', 'finalize', 'result'])
  })

  it('CODE-3 in both mode run_code works alongside native calls', async () => {
    const registry = createRegistry({ mode: 'both' })
    registry.register(tool({ name: 'native', output: numberOutput, execute: async () => ({ n: 1 }) }))
    const program = codeProgram([{ name: 'native', arguments: {} }])
    const result = await registry.execute(call('run_code', program, { agent: {} }))
    expect(result).toMatchObject({ isError: false, value: [{ value: { n: 1 } }] })
  })

  describe('the code-dispatch log', () => {
    async function runFetch(listener?: Parameters<ToolRegistry['onCodeDispatchLog']>[0]) {
      const registry = createRegistry({ mode: 'code' })
      registry.register(tool({ name: 'fetch', output: numberOutput, execute: async () => ({ n: 1 }) }))
      if (listener) registry.onCodeDispatchLog(listener)
      const program = codeProgram([{ name: 'fetch', arguments: {} }])
      const result = await registry.execute(call('run_code', program, { callId: 'program', agent: {} }))
      return { result, events: registry.codeDispatchEvents() }
    }

    it('CODE-4 a listener rewriting content changes only the persisted event, not the program value or the outcome', async () => {
      const baseline = await runFetch()
      const redacted = await runFetch(async () => [{ type: 'text', text: 'redacted' }])
      expect(baseline.events).toEqual([
        { subCallId: expect.any(String), name: 'fetch', isError: false, content: [{ type: 'text', text: 'n=1' }] },
      ])
      expect(redacted.events).toEqual([
        { subCallId: expect.any(String), name: 'fetch', isError: false, content: [{ type: 'text', text: 'redacted' }] },
      ])
      expect(redacted.result).toStrictEqual(baseline.result)
      expect(redacted.result).toMatchObject({ isError: false, value: [{ value: { n: 1 } }] })
    })

    it('CODE-4 a listener that rewrites after next() still changes only the persisted event', async () => {
      const baseline = await runFetch()
      const wrapped = await runFetch(async (_record, next) => {
        const original = await next()
        return [...original, { type: 'text', text: 'logged only' }]
      })
      expect(wrapped.events[0]?.content).toEqual([
        { type: 'text', text: 'n=1' },
        { type: 'text', text: 'logged only' },
      ])
      expect(wrapped.result).toStrictEqual(baseline.result)
    })

    it('CODE-4 a throwing listener leaves the original content logged and the outcome unchanged', async () => {
      const baseline = await runFetch()
      const broken = await runFetch(async () => {
        throw new Error('log listener broke')
      })
      expect(broken.events).toEqual(baseline.events)
      expect(broken.events[0]?.content).toEqual([{ type: 'text', text: 'n=1' }])
      expect(broken.result).toStrictEqual(baseline.result)
    })
  })

  it('CODE-5 a fake parent is treated as absent: a code-mode native call stays UNKNOWN_TOOL and reaches no stage', async () => {
    const log: Stage[] = []
    const registry = createRegistry({ mode: 'code' })
    registry.register(tracedTool(log, { name: 'native' }))
    traceStages(registry, log)
    const input = call('native', {}, { agent: {} })
    const absent = await registry.execute(input)
    const faked = await registry.execute({ ...input, parent: Symbol('fake') })
    expect(codeOf(faked)).toBe('UNKNOWN_TOOL')
    expect(faked).toStrictEqual(absent)
    expect(log).toEqual(['result', 'result'])
  })

  it('CODE-5 the token of an execution no longer in flight is treated as absent', async () => {
    const log: Stage[] = []
    const tokens: unknown[] = []
    const registry = createRegistry({ mode: 'code' })
    registry.register(tracedTool(log, { name: 'native' }))
    registry.onResult((exec) => {
      if (exec.name === 'run_code') tokens.push(exec.token)
    })
    const program = codeProgram([] as { name: string; arguments: JsonValue }[])
    const finished = await registry.execute(call('run_code', program, { agent: {} }))
    expect(finished.isError).toBe(false)
    expect(tokens).toHaveLength(1)
    traceStages(registry, log)
    const stale = await registry.execute(call('native', {}, { parent: tokens[0] }))
    expect(codeOf(stale)).toBe('UNKNOWN_TOOL')
    expect(log).toEqual(['result'])
  })

  it('CODE-5 in native mode a fake parent changes nothing: the call runs normally', async () => {
    const log: Stage[] = []
    const registry = createRegistry()
    registry.register(tracedTool(log, { name: 'native' }))
    traceStages(registry, log)
    const result = await registry.execute(call('native', {}, { parent: { fake: true } }))
    expect(result.isError).toBe(false)
    expect(log).toEqual(['pre', 'guard', 'wrapper', 'body', 'post', 'finalize', 'result'])
  })
})
