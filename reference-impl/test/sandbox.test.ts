// run_code runs a model-written program in a WebAssembly sandbox: it reaches nothing of the host.
// Each escape attempt must end as an error outcome (or, for a probe, see nothing), and the host
// must be unchanged afterwards. Asserted on outcome kinds, codes and values, never on messages.
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolExecutionResult } from '../../harness/contract/spec.js'
import { createRegistry } from '../index.js'
import { call, tool } from './helpers.js'
import { codeOf } from './helpers-outcome.js'

const BUDGET_MS = 1_500

async function runCode(code: string, signal = new AbortController().signal): Promise<ToolExecutionResult> {
  const registry = createRegistry({ mode: 'code', codeTimeBudgetMs: BUDGET_MS })
  registry.register(tool({ name: 'echo', execute: async (args) => args }))
  return registry.execute(call('run_code', { code }, { agent: {}, signal }))
}

const valueOf = (result: ToolExecutionResult) => (result.isError ? undefined : result.value)

const ESCAPES: Record<string, string> = {
  'reads process.env': 'return Object.keys(process.env).length',
  'calls require': "return require('node:fs').readdirSync('/')",
  'imports node:fs': "return (await import('node:fs')).readdirSync('/')",
  'imports a relative module': "return (await import('../../package.json')).default",
  'reaches the host global through Function': "return Function('return this')().process.env",
  'climbs a constructor chain': "return [].constructor.constructor('return process')().pid",
  'climbs from an async function': "return (async () => {}).constructor('return process')()",
  'uses setTimeout': 'return await new Promise((resolve) => setTimeout(resolve, 1))',
  'uses fetch': "return await fetch('http://127.0.0.1:1/')",
  'reads globalThis.require': 'return globalThis.require.main.filename',
  'uses WebAssembly': 'return typeof WebAssembly.Memory',
  'throws a Proxy that throws on every trap': 'throw new Proxy({}, { get() { throw 1 }, has() { throw 1 }, ownKeys() { throw 1 } })',
  'never settles': 'await new Promise(() => {})',
  'loops forever': 'while (true) {}',
  'recurses without end': 'const f = () => f(); return f()',
  'allocates a huge string': "return 'x'.repeat(2 ** 29).length",
  'allocates a huge array': 'return new Array(1e9).fill(0).length',
  'allocates a huge buffer': 'return new ArrayBuffer(2 ** 30).byteLength',
  'keeps allocating': "const a = []; for (;;) a.push('x'.repeat(1e5) + a.length)",
  'returns a value that is not JSON': 'return { n: 1n }',
}

const PROBES: Record<string, string> = {
  process: 'return typeof process',
  require: 'return typeof require',
  module: 'return typeof module',
  Buffer: 'return typeof Buffer',
  setTimeout: 'return typeof setTimeout',
  setInterval: 'return typeof setInterval',
  queueMicrotask: 'return typeof queueMicrotask',
  fetch: 'return typeof fetch',
  WebAssembly: 'return typeof WebAssembly',
  'the host global': "return typeof Function('return this')().process",
}

describe('CODE run_code sandbox: a program sees nothing of the host', () => {
  afterEach(() => {
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(typeof Array.prototype.map).toBe('function')
  })

  it.each(Object.entries(ESCAPES))('a program that %s ends as an error outcome', async (_name, code) => {
    const result = await runCode(code)
    expect(result.isError).toBe(true)
  }, 20_000)

  it.each(Object.entries(PROBES))('%s is not defined inside a program', async (_name, code) => {
    expect(valueOf(await runCode(code))).toBe('undefined')
  })

  it('the SDK and console are all a program gets, and a sub-call still runs the pipeline', async () => {
    const result = await runCode("console.log('hi'); return [await tools.echo({ a: 1 }), typeof console.log]")
    expect(valueOf(result)).toEqual([{ a: 1 }, 'function'])
  })

  it('prototype pollution inside a program is invisible to the host and to the next program', async () => {
    const polluted = await runCode('Object.prototype.polluted = 1; Array.prototype.map = null; return 1')
    expect(valueOf(polluted)).toBe(1)
    expect(valueOf(await runCode("return [({}).polluted === undefined, typeof [].map]"))).toEqual([true, 'function'])
  })

  it('CAN-3 a caller abort interrupts a program that never yields; the outcome is ABORTED', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const result = await runCode('while (true) {}', controller.signal)
    expect(codeOf(result)).toBe('ABORTED')
  })
})
