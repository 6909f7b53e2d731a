/**
 * Per-call cost of the reference's execute for a trivial tool, with no listeners and with one
 * listener per stage, as ratios to a bare `await body(args)` measured in the same run.
 */
import { createRegistry } from '../../reference-impl/index.js'
import type { ToolDefinition } from '../contract/spec.js'
import { spread, type Spread } from './stats.js'

const body = async (args: unknown) => ({ echoed: args })
const trivialTool: ToolDefinition = {
  name: 'echo',
  description: 'echo',
  parameters: { type: 'object' },
  output: { schema: {}, render: (_a, value) => [{ type: 'text', text: JSON.stringify(value) }] },
  execute: body as ToolDefinition['execute'],
}

async function timePerCall(calls: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) await run(i)
  return Number(process.hrtime.bigint() - start) / calls
}

export interface ExecuteCost {
  bareNs: Spread
  plainNs: Spread
  listenersNs: Spread
  plainRatio: Spread
  listenersRatio: Spread
}

export async function measureExecuteCost(repeats: number, calls: number): Promise<ExecuteCost> {
  const plain = createRegistry()
  plain.register(trivialTool)
  const hooked = createRegistry()
  hooked.register(trivialTool)
  hooked.onPreExecute(async (_e, next) => next())
  hooked.guard(() => undefined)
  hooked.onExecute(async (_e, next) => next())
  hooked.onPostExecute(async (_e, _r, next) => next())
  hooked.onResult(() => undefined)
  const signal = new AbortController().signal
  const input = (i: number) => ({ callId: `b${i}`, name: 'echo', arguments: { i }, signal })
  const bare: number[] = []
  const plainNs: number[] = []
  const listenersNs: number[] = []
  // Warm-up: every variant is JIT-compiled before the first measured repeat.
  await timePerCall(calls, (i) => body({ i }))
  await timePerCall(calls, (i) => plain.execute(input(i)))
  await timePerCall(calls, (i) => hooked.execute(input(i)))
  for (let r = 0; r < repeats; r++) {
    bare.push(await timePerCall(calls, (i) => body({ i })))
    plainNs.push(await timePerCall(calls, (i) => plain.execute(input(i))))
    listenersNs.push(await timePerCall(calls, (i) => hooked.execute(input(i))))
  }
  return {
    bareNs: spread(bare),
    plainNs: spread(plainNs),
    listenersNs: spread(listenersNs),
    plainRatio: spread(plainNs.map((n, i) => n / bare[i]!)),
    listenersRatio: spread(listenersNs.map((n, i) => n / bare[i]!)),
  }
}
