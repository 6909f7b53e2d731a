import { describe, expect, it } from 'vitest'
import type { ApprovalOutcome } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, deferred, flush, tracedTool, type Stage } from './helpers.js'
import { askListener, asAny, recordingApproval } from './helpers-policy.js'

type Answer = Parameters<typeof recordingApproval>[0]

/** A registry whose only listener asks, with `answer` as the approval service. */
function asking(answer: Answer, reason?: string) {
  const log: Stage[] = []
  const approval = recordingApproval(answer)
  const registry = createRegistry({ approval })
  registry.register(tracedTool(log))
  registry.onPreExecute(askListener(reason))
  return { registry, approval, log }
}

describe('APR: approval (ask)', () => {
  it("APR-1 an ask on a call with an agent is forwarded exactly once with the callId, tool name, reason and caller's signal", async () => {
    const agent = { id: 'A' }
    const { registry, approval } = asking(() => 'allowed-once', 'touches files')
    const input = call('echo', { secret: 's3cret-value' }, { agent })
    const result = await registry.execute(input)
    expect(result.isError).toBe(false)
    expect(approval.requests).toHaveLength(1)
    const [request] = approval.requests
    expect(request?.callId).toBe(input.callId)
    expect(request?.toolName).toBe('echo')
    expect(request?.reason).toBe('touches files')
    expect(request?.signal).toBe(input.signal)
  })

  it("APR-1 the approval request never carries the tool's arguments", async () => {
    const args = { secret: 's3cret-value', nested: { token: 'hidden-token' } }
    const { registry, approval } = asking(() => 'allowed-once', 'why')
    await registry.execute(call('echo', args, { agent: {} }))
    const [request] = approval.requests
    expect(request).toBeDefined()
    expect(Object.keys(request!)).not.toContain('arguments')
    expect(Object.keys(request!)).not.toContain('args')
    const { signal: _signal, agent: _agent, ...rest } = request!
    expect(JSON.stringify(rest)).not.toContain('s3cret-value')
    expect(JSON.stringify(rest)).not.toContain('hidden-token')
  })

  it('APR-1 an ask without a reason is forwarded without one', async () => {
    const { registry, approval } = asking(() => 'allowed-once')
    await registry.execute(call('echo', {}, { agent: {} }))
    expect(approval.requests).toHaveLength(1)
    expect(approval.requests[0]?.reason).toBeUndefined()
  })

  it('APR-1 a call with no agent is forwarded the same way or denied without asking', async () => {
    const { registry, approval, log } = asking(() => 'allowed-once', 'why')
    const input = call('echo')
    const result = await registry.execute(input)
    if (approval.requests.length === 0) {
      expect(result.isError).toBe(true)
      expect(log).not.toContain('body')
    } else {
      expect(approval.requests).toHaveLength(1)
      expect(approval.requests[0]?.callId).toBe(input.callId)
      expect(approval.requests[0]?.toolName).toBe('echo')
      expect(approval.requests[0]?.reason).toBe('why')
      expect(approval.requests[0]?.signal).toBe(input.signal)
      expect(result.isError).toBe(false)
    }
  })

  it("APR-2 the exact outcome 'allowed-once', sync or async, lets the call proceed to the guards and the body", async () => {
    for (const answer of [() => 'allowed-once' as const, async () => 'allowed-once' as const]) {
      const { registry, log } = asking(answer)
      registry.guard(() => (log.push('guard'), undefined))
      const result = await registry.execute(call('echo', {}, { agent: {} }))
      expect(result.isError).toBe(false)
      expect(log).toEqual(['guard', 'body', 'finalize'])
    }
  })

  it.each([
    ["'rejected'", 'rejected'],
    ["'cancelled'", 'cancelled'],
    ["'unavailable'", 'unavailable'],
    ["'ALLOWED-ONCE'", 'ALLOWED-ONCE'],
    ["'allowed'", 'allowed'],
    ["'allowed-once '", 'allowed-once '],
    ["'allowed-always'", 'allowed-always'],
    ['true', true],
    ['1', 1],
    ['null', null],
    ['undefined', undefined],
    ['an object', { outcome: 'allowed-once' }],
    ['a String object', new String('allowed-once')],
    ['an array', ['allowed-once']],
  ])('APR-2 an approval outcome of %s means the body never runs', async (_label, outcome) => {
    const { registry, log } = asking(() => asAny<ApprovalOutcome>(outcome))
    registry.guard(() => (log.push('guard'), undefined))
    const result = await registry.execute(call('echo', {}, { agent: {} }))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('guard')
    expect(log).not.toContain('body')
  })

  it('APR-2 an approval service that throws or rejects means the body never runs', async () => {
    const answers: Answer[] = [
      () => {
        throw new Error('service down')
      },
      () => Promise.reject(new Error('service down')),
      async () => {
        throw 'a string'
      },
    ]
    for (const answer of answers) {
      const { registry, log } = asking(answer)
      const result = await registry.execute(call('echo', {}, { agent: {} }))
      expect(result.isError).toBe(true)
      expect(log).not.toContain('body')
    }
  })

  it('APR-2 a caller abort while approval never settles ends the call; the body never runs', async () => {
    const { registry, approval, log } = asking(() => new Promise<ApprovalOutcome>(() => undefined))
    const controller = new AbortController()
    const pending = registry.execute(call('echo', {}, { agent: {}, signal: controller.signal }))
    await flush()
    expect(approval.requests).toHaveLength(1)
    controller.abort()
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it("APR-2 a caller abort while approval is pending wins over a later 'allowed-once'", async () => {
    const answer = deferred<ApprovalOutcome>()
    const { registry, approval, log } = asking(() => answer.promise)
    const controller = new AbortController()
    const pending = registry.execute(call('echo', {}, { agent: {}, signal: controller.signal }))
    await flush()
    expect(approval.requests).toHaveLength(1)
    controller.abort()
    answer.resolve('allowed-once')
    const result = await pending
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })

  it('APR-3 a granted approval never bypasses the guards', async () => {
    const { registry, approval, log } = asking(() => 'allowed-once')
    registry.guard(() => (log.push('guard'), 'no writes today'))
    const result = await registry.execute(call('echo', {}, { agent: {} }))
    expect(approval.requests).toHaveLength(1)
    expect(result.isError).toBe(true)
    expect(log).toContain('guard')
    expect(log).not.toContain('body')
  })

  it('APR-3 a granted approval does not skip a throwing guard', async () => {
    const { registry, log } = asking(() => 'allowed-once')
    registry.guard(() => {
      throw new Error('guard')
    })
    const result = await registry.execute(call('echo', {}, { agent: {} }))
    expect(result.isError).toBe(true)
    expect(log).not.toContain('body')
  })
})
