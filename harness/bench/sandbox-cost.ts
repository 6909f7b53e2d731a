/**
 * What Code Mode's sandbox costs: a `run_code` call whose program makes one sub-call (a thread
 * with QuickJS, the program, the sub-call's full pipeline) against the same tool called natively.
 */
import { codeProgram, createRegistry } from '../../reference-impl/index.js'
import { spread, type Spread } from './stats.js'

export interface SandboxCost {
  nativeMs: Spread
  runCodeMs: Spread
  ratio: Spread
}

export async function measureSandboxCost(repeats: number, calls: number): Promise<SandboxCost> {
  const registry = createRegistry({ mode: 'both' })
  registry.register({
    name: 'echo',
    description: 'echo',
    parameters: { type: 'object' },
    output: { schema: {}, render: () => [{ type: 'text', text: 'ok' }] },
    execute: async (args) => args,
  })
  const signal = new AbortController().signal
  const agent = {}
  const time = async (input: () => Parameters<typeof registry.execute>[0]) => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) await registry.execute(input())
    return Number(process.hrtime.bigint() - start) / 1e6 / calls
  }
  const native: number[] = []
  const sandboxed: number[] = []
  await time(() => ({ callId: 'warm', name: 'run_code', arguments: codeProgram([{ name: 'echo', arguments: {} }]), signal, agent }))
  for (let r = 0; r < repeats; r++) {
    native.push(await time(() => ({ callId: 'n', name: 'echo', arguments: { a: 1 }, signal, agent })))
    sandboxed.push(await time(() => ({ callId: 'c', name: 'run_code', arguments: codeProgram([{ name: 'echo', arguments: { a: 1 } }]), signal, agent })))
  }
  return { nativeMs: spread(native), runCodeMs: spread(sandboxed), ratio: spread(sandboxed.map((s, i) => s / native[i]!)) }
}
