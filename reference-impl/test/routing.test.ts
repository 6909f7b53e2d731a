import { describe, expect, it } from 'vitest'
import type { ApprovalOutcome, ToolDefinition, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry, defineTool, type RegistryOptions, type ToolRegistry } from '../index.js'
import { call, deferred, tool, traceStages, tracedTool, type Stage } from './helpers.js'
import { codeOf, numberOutput } from './helpers-outcome.js'

/**
 * A registry with a traced tool 'echo', a pass-through tracer at every stage (registered first, so
 * outermost) and an approval service that counts requests and answers `approval`.
 */
function traced(options: { approval?: () => ApprovalOutcome; registry?: RegistryOptions; tool?: Partial<ToolDefinition> } = {}) {
  const log: Stage[] = []
  let approvals = 0
  const answer = options.approval ?? (() => 'allowed-once' as const)
  const registry = createRegistry({
    ...options.registry,
    approval: {
      request: () => {
        approvals++
        return answer()
      },
    },
  })
  registry.register(tracedTool(log, options.tool))
  traceStages(registry, log)
  return { registry, log, approvals: () => approvals }
}

const FULL: Stage[] = ['pre', 'guard', 'wrapper', 'body', 'post', 'finalize', 'result']
const withoutPost = (log: Stage[]) => log.filter((stage) => stage !== 'post')
const count = (log: Stage[], stage: Stage) => log.filter((s) => s === stage).length
const agent = {}

describe('Routing: which stages each outcome passes', () => {
  it('IN-2 FIN-2 RES-1 routing: invalid arguments (not lossless JSON): no policy stage, finalize once, result once', async () => {
    const { registry, log, approvals } = traced()
    const result = await registry.execute(call('echo', { n: 1n }, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['finalize', 'result'])
    expect(approvals()).toBe(0)
  })

  it('DEF-5 FIN-2 RES-1 routing: arguments invalid for a defineTool tool: the body never runs, finalize once, result once', async () => {
    const log: Stage[] = []
    const registry = createRegistry()
    registry.register(
      defineTool(tracedTool(log, { parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } })),
    )
    traceStages(registry, log)
    const result = await registry.execute(call('echo', { n: 'x' }))
    expect(codeOf(result)).toBe('INVALID_ARGS')
    expect(log).not.toContain('body')
    expect(count(log, 'finalize')).toBe(1)
    expect(count(log, 'result')).toBe(1)
    expect(log.at(-1)).toBe('result')
  })

  it('CAN-1 FIN-2 RES-1 routing: aborted at entry: no policy stage, finalize once, result once', async () => {
    const { registry, log, approvals } = traced()
    const result = await registry.execute(call('echo', {}, { signal: AbortSignal.abort(), agent }))
    expect(codeOf(result)).toBe('ABORTED_BEFORE_DISPATCH')
    expect(log).toEqual(['finalize', 'result'])
    expect(approvals()).toBe(0)
  })

  it('CODE-1 FIN-2 RES-1 routing: code-mode direct native call: no stage and no finalize, result once', async () => {
    const { registry, log, approvals } = traced({ registry: { mode: 'code' } })
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(codeOf(result)).toBe('UNKNOWN_TOOL')
    expect(log).toEqual(['result'])
    expect(approvals()).toBe(0)
  })

  it('PRE-2 FIN-2 RES-1 routing: deny: pre runs, no approval, guard, wrapper or body, finalize once, result once', async () => {
    const { registry, log, approvals } = traced()
    registry.onPreExecute(async () => ({ kind: 'deny', reason: 'no' }))
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(withoutPost(log)).toEqual(['pre', 'finalize', 'result'])
    expect(count(log, 'post')).toBeLessThanOrEqual(1)
    expect(approvals()).toBe(0)
  })

  it('APR-2 FIN-2 RES-1 routing: refused approval: pre and approval run, no guard, wrapper or body, finalize once, result once', async () => {
    const { registry, log, approvals } = traced({ approval: () => 'rejected' })
    registry.onPreExecute(async () => ({ kind: 'ask', reason: 'sure?' }))
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(withoutPost(log)).toEqual(['pre', 'finalize', 'result'])
    expect(count(log, 'post')).toBeLessThanOrEqual(1)
    expect(approvals()).toBe(1)
  })

  it('GRD-1 FIN-2 RES-1 routing: guard deny: pre and guards run, no approval without ask, no wrapper or body, finalize once, result once', async () => {
    const { registry, log, approvals } = traced()
    registry.guard(() => 'no')
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(withoutPost(log)).toEqual(['pre', 'guard', 'finalize', 'result'])
    expect(count(log, 'post')).toBeLessThanOrEqual(1)
    expect(approvals()).toBe(0)
  })

  it('APR-3 routing: granted approval: approval runs for ask only, then the guards and the full pipeline', async () => {
    const { registry, log, approvals } = traced()
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(false)
    expect(log).toEqual(FULL)
    expect(approvals()).toBe(1)
  })

  it('PRE-4 FIN-2 RES-1 routing: pre-execute listener throws: pre runs, nothing after it but finalize once and result once', async () => {
    const { registry, log, approvals } = traced()
    registry.onPreExecute(async () => Promise.reject(new Error('listener broke')))
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['pre', 'finalize', 'result'])
    expect(approvals()).toBe(0)
  })

  it('APR-2 FIN-2 RES-1 routing: approval service throws: pre and approval run, no guard, body or post, finalize once, result once', async () => {
    const { registry, log, approvals } = traced({
      approval: () => {
        throw new Error('approval broke')
      },
    })
    registry.onPreExecute(async () => ({ kind: 'ask' }))
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['pre', 'finalize', 'result'])
    expect(approvals()).toBe(1)
  })

  it('GRD-3 FIN-2 RES-1 routing: guard throws: pre and guards run, no wrapper, body or post, finalize once, result once', async () => {
    const { registry, log } = traced()
    registry.guard(() => {
      throw new Error('guard broke')
    })
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['pre', 'guard', 'finalize', 'result'])
  })

  const bodyOutcomes: [string, boolean, Partial<ToolDefinition>][] = [
    ['success', false, { output: numberOutput, execute: async () => ({ n: 1 }) }],
    ['throw', true, { execute: async () => Promise.reject(new Error('tool failed')) }],
    ['invalid output', true, { output: numberOutput, execute: async () => ({ n: 'x' }) }],
  ]
  it.each(bodyOutcomes)('FIN-2 RES-1 routing: body %s: every stage runs, finalize once, result once', async (_label, isError, def) => {
    const { registry, log, approvals } = traced({ tool: def })
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(isError)
    expect(log).toEqual(FULL)
    expect(approvals()).toBe(0)
  })

  it('CAN-3 FIN-2 RES-1 routing: body abort: every stage runs, finalize once, result once', async () => {
    const controller = new AbortController()
    const started = deferred()
    const release = deferred()
    const { registry, log } = traced({
      tool: {
        execute: async () => {
          started.resolve()
          await release.promise
          return {}
        },
      },
    })
    const pending = registry.execute(call('echo', {}, { signal: controller.signal, agent }))
    await started.promise
    controller.abort()
    release.resolve()
    const result = await pending
    expect(codeOf(result)).toBe('ABORTED')
    expect(log).toEqual(FULL)
  })

  it('EXE-3 FIN-2 RES-1 routing: wrapper throws: pre, guards, wrapper and body run, no post, finalize once, result once', async () => {
    const { registry, log } = traced()
    registry.onExecute(async (_exec, next) => {
      await next()
      throw new Error('wrapper broke')
    })
    const result = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(['pre', 'guard', 'wrapper', 'body', 'finalize', 'result'])
  })

  const postFailures: [string, Parameters<ToolRegistry['onPostExecute']>[0]][] = [
    ['throws', async () => Promise.reject(new Error('post broke'))],
    ['returns an illegal decision', async () => ({ kind: 'nope' }) as never],
    ['replaces both value and content', async () => ({ kind: 'accept', value: {}, content: [] }) as never],
  ]
  it.each(postFailures)('PST-3 FIN-2 RES-1 routing: post-execute %s: every stage runs, the outcome is an error, finalize ' +
    'once, result once', async (_label, listener) => {
    const { registry, log } = traced()
    registry.onPostExecute(listener)
    const result: ToolExecutionResult = await registry.execute(call('echo', {}, { agent }))
    expect(result.isError).toBe(true)
    expect(log).toEqual(FULL)
  })

  it('FIN-2 RES-1 routing: finalize is skipped only when the tool was not visible at entry', async () => {
    const { registry, log } = traced()
    const result = await registry.execute(call('missing', {}, { agent }))
    expect(codeOf(result)).toBe('UNKNOWN_TOOL')
    expect(log).toEqual(['result'])
  })
})

