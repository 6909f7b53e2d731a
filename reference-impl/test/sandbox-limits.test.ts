// run_code's limits hold for the whole program, its sub-calls included: the 32 MiB memory cap
// inside the sandbox and on what the program makes the host hold, and the time budget even for a
// program that launches itself through run_code. Asserted on outcome kinds, codes, values, what
// the host's tools observed and elapsed time, never on messages.
import { describe, expect, it } from 'vitest'
import type { ToolExecutionResult } from '../../harness/contract/spec.js'
import { DEFAULT_LIMITS, SANDBOX_LIMIT, SUB_CALL_GRACE_MS } from '../code-mode/sandbox.js'
import { PROGRAMS_PER_TREE } from '../code-mode/run-code.js'
import { codeOf } from './helpers-outcome.js'
import { runProgram, sandboxRegistry } from './helpers-sandbox.js'

const valueOf = (result: ToolExecutionResult) => (result.isError ? undefined : result.value)

async function timed(run: () => Promise<ToolExecutionResult>): Promise<{ result: ToolExecutionResult; ms: number }> {
  const start = performance.now()
  const result = await run()
  return { result, ms: performance.now() - start }
}

const MEMORY_BUDGET_MS = 8_000

const HEAP_HOGS: Record<string, string> = {
  'keeps 200 strings of 1 MB': "const a = []; for (let i = 0; i < 200; i++) a.push('x'.repeat(1e6) + i); return a.length",
  'keeps small objects without end': 'const a = []; for (;;) a.push({ i: a.length, list: [1, 2, 3] })',
  'keeps every sub-call result of 1 MB': 'const a = []; for (;;) a.push(await tools.big({ n: 1e6 }))',
}

describe('CODE run_code memory: the cap holds inside the sandbox', () => {
  it.each(Object.entries(HEAP_HOGS))('a program that %s ends as an error outcome by the cap, not the budget', async (_name, code) => {
    const { registry } = sandboxRegistry(MEMORY_BUDGET_MS)
    const { result, ms } = await timed(() => runProgram(registry, code))
    expect(result.isError).toBe(true)
    expect(ms).toBeLessThan(MEMORY_BUDGET_MS)
    expect(valueOf(await runProgram(registry, 'return 1'))).toBe(1)
  })
})

describe('CODE run_code memory: the cap holds for what a program makes the host hold', () => {
  it('unawaited sub-calls with a 4 MB argument hand the host at most the cap, a few at a time', async () => {
    const { registry, probe } = sandboxRegistry(MEMORY_BUDGET_MS)
    const code = "const s = 'x'.repeat(4e6); for (let i = 0; i < 20; i++) tools.stubborn({ s }); return 1"
    expect(valueOf(await runProgram(registry, code))).toBe(1)
    expect(probe.argumentChars).toBeLessThanOrEqual(DEFAULT_LIMITS.memoryBytes)
    expect(probe.maxRunning).toBeLessThanOrEqual(DEFAULT_LIMITS.subCallsInFlight)
  })

  it('awaited sub-calls with a 1 MB argument end the program once the cap has crossed', async () => {
    const { registry, probe } = sandboxRegistry(MEMORY_BUDGET_MS)
    const code = "const s = 'x'.repeat(1e6); let n = 0; try { for (;;) { await tools.wait({ s }); n++ } } catch (e) { return [n, e.code] }"
    const { result, ms } = await timed(() => runProgram(registry, code))
    // each sub-call sends its name and its arguments as text: 'wait' and {"s":"x…x"}
    expect(valueOf(result)).toEqual([Math.floor(DEFAULT_LIMITS.memoryBytes / (1e6 + 12)), SANDBOX_LIMIT])
    expect(probe.argumentChars).toBeLessThanOrEqual(DEFAULT_LIMITS.memoryBytes)
    expect(ms).toBeLessThan(MEMORY_BUDGET_MS)
  })

  it('sub-call results of 4 MB stop crossing into the program once the cap has crossed', async () => {
    const { registry } = sandboxRegistry(MEMORY_BUDGET_MS)
    const code = 'let n = 0; try { for (;;) { await tools.big({ n: 4e6 }); n++ } } catch (e) { return [n, e.code] }'
    const { result, ms } = await timed(() => runProgram(registry, code))
    const reply = JSON.stringify({ ok: true, value: 'x'.repeat(4e6) }).length
    expect(valueOf(result)).toEqual([Math.floor(DEFAULT_LIMITS.memoryBytes / reply), SANDBOX_LIMIT])
    expect(ms).toBeLessThan(MEMORY_BUDGET_MS)
  })

  it('5,000 sub-calls started at once: a few run, a bounded queue waits, the rest are refused', async () => {
    const { registry, probe } = sandboxRegistry(MEMORY_BUDGET_MS)
    const code = `const all = []
for (let i = 0; i < 5000; i++) all.push(tools.wait({ ms: 0 }).then(() => 'ran', (e) => e.code))
const codes = await Promise.all(all)
return [codes.filter((c) => c === 'ran').length, codes.filter((c) => c === '${SANDBOX_LIMIT}').length]`
    const admitted = DEFAULT_LIMITS.subCallsInFlight + DEFAULT_LIMITS.subCallsQueued
    expect(valueOf(await runProgram(registry, code))).toEqual([admitted, 5_000 - admitted])
    expect(probe.maxRunning).toBeLessThanOrEqual(DEFAULT_LIMITS.subCallsInFlight)
  })
})

/** A program that launches itself through run_code, starting a sub-call that hangs at every level. */
function selfLaunching(): string {
  const template = `const template = $T
const self = template.replace('$' + 'T', () => JSON.stringify(template))
tools.hang({}).catch(() => 0)
try { await tools.run_code({ code: self }) } catch {}
for (;;) await tools.hang({})`
  return template.replace('$T', () => JSON.stringify(template))
}

describe('CAN-3 run_code time budget: it holds for the whole program, its sub-calls included', () => {
  const BUDGET_MS = 3_000
  const GRACE_MS = SUB_CALL_GRACE_MS + 1_000

  it(`a program that launches itself ends within its budget and a grace; every sub-call it started is aborted`, async () => {
    const { registry, probe } = sandboxRegistry(BUDGET_MS)
    const nested: ToolExecutionResult[] = []
    registry.onResult((exec, result) => void (exec.name === 'run_code' && exec.parent !== undefined && nested.push(result)))
    const { result, ms } = await timed(() => runProgram(registry, selfLaunching()))
    expect(result.isError).toBe(true)
    expect(ms).toBeLessThan(BUDGET_MS + GRACE_MS)
    expect(probe.started).toBe(PROGRAMS_PER_TREE + 1)
    expect(probe.aborted).toBe(probe.started)
    expect(probe.running).toBe(0)
    expect(nested.map(codeOf)).toEqual([SANDBOX_LIMIT, ...Array.from({ length: PROGRAMS_PER_TREE - 1 }, () => 'ABORTED')])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(probe.started).toBe(PROGRAMS_PER_TREE + 1)
  }, 20_000)

  it('a caller abort aborts the sub-calls of the program; the outcome is ABORTED', async () => {
    const { registry, probe } = sandboxRegistry(30_000)
    const controller = new AbortController()
    let abortedAt = 0
    const poll = setInterval(() => {
      if (probe.started < 2) return
      clearInterval(poll)
      abortedAt = performance.now()
      controller.abort()
    }, 10)
    const result = await runProgram(registry, 'tools.hang({}); await tools.hang({})', controller.signal)
    expect(codeOf(result)).toBe('ABORTED')
    expect(performance.now() - abortedAt).toBeLessThan(GRACE_MS)
    expect([probe.started, probe.aborted, probe.running]).toEqual([2, 2, 0])
  })
})
