import { describe, expect, it } from 'vitest'
import type { JsonValue, ToolDefinition, ToolExecutionInput, ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry, defineTool } from '../index.js'
import { call, flush, tool } from './helpers.js'
import { asAny, ControlledBodies, errorCode } from './helpers-policy.js'

const PARALLEL = { kind: 'parallel' }
const EXCLUSIVE = { kind: 'exclusive' }

/** A registry holding one global tool `echo` whose classifier is `classifier`. */
function classifiedBy(classifier: unknown) {
  const registry = createRegistry()
  registry.register(tool({ isConcurrencySafe: asAny<ToolDefinition['isConcurrencySafe']>(classifier) }))
  return registry
}

describe('MODE: concurrency classification', () => {
  it('MODE-1 a classifier returning exactly true makes the call parallel', () => {
    const seen: JsonValue[] = []
    const registry = classifiedBy((args: JsonValue) => (seen.push(args), true))
    expect(registry.executionMode(call('echo', { path: 'a' }))).toEqual(PARALLEL)
    expect(seen).toEqual([{ path: 'a' }])
  })

  it('MODE-1 the classifier decides per call from the arguments', () => {
    const registry = classifiedBy((args: JsonValue) => (args as { readOnly?: boolean }).readOnly === true)
    expect(registry.executionMode(call('echo', { readOnly: true }))).toEqual(PARALLEL)
    expect(registry.executionMode(call('echo', { readOnly: false }))).toEqual(EXCLUSIVE)
  })

  it("MODE-1 the visible tool's classifier decides: an agent's shadowing tool for that agent, the global one for others", () => {
    const agent = {}
    const registry = createRegistry()
    registry.register(tool({ isConcurrencySafe: () => true }))
    registry.register(tool({ isConcurrencySafe: () => false }), { agent })
    expect(registry.executionMode(call('echo', {}))).toEqual(PARALLEL)
    expect(registry.executionMode(call('echo', {}, { agent: {} }))).toEqual(PARALLEL)
    expect(registry.executionMode(call('echo', {}, { agent }))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 a tool without a classifier is exclusive', () => {
    const registry = createRegistry()
    registry.register(tool())
    expect(registry.executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it.each([
    ['false', false],
    ['1', 1],
    ["'true'", 'true'],
    ['{}', {}],
    ['a Boolean object', new Boolean(true)],
    ['undefined', undefined],
    ['null', null],
    ['[true]', [true]],
    ['{ kind: parallel }', { kind: 'parallel' }],
  ])('MODE-2 a classifier returning %s is exclusive', (_label, verdict) => {
    expect(classifiedBy(() => verdict).executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 a classifier returning a Promise of true (or a rejected Promise) is exclusive', () => {
    expect(classifiedBy(() => Promise.resolve(true)).executionMode(call('echo'))).toEqual(EXCLUSIVE)
    expect(classifiedBy(() => Promise.reject(new Error('async'))).executionMode(call('echo'))).toEqual(EXCLUSIVE)
    expect(classifiedBy(async () => true).executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 a classifier that throws is exclusive, and executionMode does not throw', () => {
    const throwsError = classifiedBy(() => {
      throw new Error('classifier')
    })
    const throwsValue = classifiedBy(() => {
      throw 'plain string'
    })
    expect(throwsError.executionMode(call('echo'))).toEqual(EXCLUSIVE)
    expect(throwsValue.executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it.each([
    ['true', true],
    ["'parallel'", 'parallel'],
    ['an object', { call: () => true }],
    ['null', null],
  ])('MODE-2 a non-function classifier (%s) is exclusive', (_label, classifier) => {
    expect(classifiedBy(classifier).executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 a classifier behind a throwing getter is exclusive', () => {
    const def = tool()
    Object.defineProperty(def, 'isConcurrencySafe', {
      enumerable: true,
      get: () => {
        throw new Error('getter')
      },
    })
    const registry = createRegistry()
    registry.register(def)
    expect(registry.executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 invalid arguments to a defineTool tool are exclusive', () => {
    const registry = createRegistry()
    registry.register(
      defineTool(
        tool({
          parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
          isConcurrencySafe: () => true,
        }),
      ),
    )
    expect(registry.executionMode(call('echo', { n: 'x' }))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('echo', {}))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('echo', { n: 1 }))).toEqual(PARALLEL)
  })

  it('MODE-2 an unknown, unregistered or hidden tool is exclusive', () => {
    const owner = {}
    const registry = createRegistry()
    const dispose = registry.register(tool({ name: 'gone', isConcurrencySafe: () => true }))
    dispose()
    registry.register(tool({ name: 'private', isConcurrencySafe: () => true }), { agent: owner })
    expect(registry.executionMode(call('missing'))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('gone'))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('private'))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('private', {}, { agent: {} }))).toEqual(EXCLUSIVE)
    expect(registry.executionMode(call('private', {}, { agent: owner }))).toEqual(PARALLEL)
  })

  it('MODE-2 a native tool hidden by code mode is exclusive for a call without parent', () => {
    const registry = createRegistry({ mode: 'code' })
    registry.register(tool({ isConcurrencySafe: () => true }))
    expect(registry.executionMode(call('echo'))).toEqual(EXCLUSIVE)
  })

  it('MODE-2 executionMode never throws, whatever it is handed', () => {
    const registry = classifiedBy(() => true)
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('proxy')
        },
      },
    )
    const inputs: unknown[] = [
      42,
      null,
      undefined,
      'echo',
      {},
      hostile,
      { name: 42 },
      Object.defineProperty({}, 'name', {
        get: () => {
          throw new Error('name')
        },
      }),
    ]
    for (const input of inputs) {
      expect(registry.executionMode(asAny<ToolExecutionInput>(input))).toEqual(EXCLUSIVE)
    }
  })
})

describe('MODE-3: the batch driver', () => {
  /** A registry with a parallel tool `par` and an exclusive tool `ex`, both controlled by `bodies`. */
  function batchRegistry(bodies: ControlledBodies) {
    const registry = createRegistry()
    registry.register(bodies.tool('par', true))
    registry.register(bodies.tool('ex', false))
    return registry
  }
  const par = (id: string) => call('par', { id })
  const ex = (id: string) => call('ex', { id })
  /** Each result as the id its body returned, or its error code. */
  const ids = (results: readonly ToolExecutionResult[]) =>
    results.map((r) => (r.isError ? errorCode(r) : (r.value as { id: string }).id))

  it('MODE-3 an exclusive call is a barrier: its body overlaps no other body', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const batch = registry.runBatch([par('p1'), par('p2'), ex('x'), par('p3')], { maxParallel: 3 })
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2'])
    bodies.release('p1')
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2'])
    bodies.release('p2')
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2', 'x'])
    bodies.release('x')
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2', 'x', 'p3'])
    bodies.release('p3')
    expect(ids(await batch)).toEqual(['p1', 'p2', 'x', 'p3'])
    expect(bodies.violations).toEqual([])
  })

  it('MODE-3 consecutive exclusive calls run one at a time', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const batch = registry.runBatch([ex('x1'), ex('x2')], { maxParallel: 4 })
    await flush()
    expect(bodies.started).toEqual(['x1'])
    bodies.release('x1')
    await flush()
    expect(bodies.started).toEqual(['x1', 'x2'])
    bodies.release('x2')
    expect(ids(await batch)).toEqual(['x1', 'x2'])
    expect(bodies.maxActive).toBe(1)
    expect(bodies.violations).toEqual([])
  })

  it('MODE-3 consecutive parallel calls overlap up to the pool bound and never beyond; results come back in call order', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const batch = registry.runBatch(['p1', 'p2', 'p3', 'p4'].map(par), { maxParallel: 2 })
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2'])
    bodies.release('p2')
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2', 'p3'])
    expect(bodies.active).toBe(2)
    bodies.release('p3')
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2', 'p3', 'p4'])
    bodies.release('p4')
    await flush()
    bodies.release('p1')
    expect(ids(await batch)).toEqual(['p1', 'p2', 'p3', 'p4'])
    expect(bodies.maxActive).toBe(2)
  })

  it('MODE-3 when the batch signal aborts, no further call starts and unstarted calls get ABORTED_BEFORE_DISPATCH without entering the pipeline', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const seen: string[] = []
    registry.onPreExecute(async (exec, next) => {
      seen.push(`pre:${exec.callId}`)
      return next()
    })
    registry.onResult((exec) => {
      seen.push(`result:${exec.callId}`)
    })
    const inputs = [ex('x'), par('p1'), par('p2')]
    const controller = new AbortController()
    const batch = registry.runBatch(inputs, { maxParallel: 2, signal: controller.signal })
    await flush()
    expect(bodies.started).toEqual(['x'])
    controller.abort()
    bodies.release('x')
    const results = await batch
    expect(bodies.started).toEqual(['x'])
    expect(ids(results)).toEqual(['x', 'ABORTED_BEFORE_DISPATCH', 'ABORTED_BEFORE_DISPATCH'])
    expect(seen).toEqual([`pre:${inputs[0]!.callId}`, `result:${inputs[0]!.callId}`])
  })

  it('MODE-3 an abort while the pool is full lets started calls finish and dispatches nothing more', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const controller = new AbortController()
    const batch = registry.runBatch([par('p1'), par('p2'), par('p3'), ex('x')], { maxParallel: 2, signal: controller.signal })
    await flush()
    expect(bodies.started).toEqual(['p1', 'p2'])
    controller.abort()
    bodies.release('p1')
    bodies.release('p2')
    const results = await batch
    expect(bodies.started).toEqual(['p1', 'p2'])
    expect(ids(results)).toEqual(['p1', 'p2', 'ABORTED_BEFORE_DISPATCH', 'ABORTED_BEFORE_DISPATCH'])
  })

  it('MODE-3 a batch whose signal is already aborted starts nothing and no listener sees any call', async () => {
    const bodies = new ControlledBodies()
    const registry = batchRegistry(bodies)
    const seen: string[] = []
    registry.onPreExecute(async (exec, next) => (seen.push(exec.callId), next()))
    registry.onResult((exec) => {
      seen.push(exec.callId)
    })
    const results = await registry.runBatch([par('p1'), ex('x')], { maxParallel: 2, signal: AbortSignal.abort() })
    expect(ids(results)).toEqual(['ABORTED_BEFORE_DISPATCH', 'ABORTED_BEFORE_DISPATCH'])
    expect(bodies.started).toEqual([])
    expect(seen).toEqual([])
  })
})
