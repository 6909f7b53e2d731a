// Generated run_code programs mixing awaited, unawaited and raced sub-calls (Promise.race, any, all,
// allSettled) of tools that settle fast, slowly, never (until aborted), ignore their abort, fail or
// return large values. Every program ends with an outcome in this process, within its budget and a
// grace, and its caps hold: sub-calls in flight, argument text handed to the host, no sub-call
// still running once the outcome is out and none started after it.
// 40 programs in `npm test`; `npm run sandbox-programs` runs 1,000.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS, SUB_CALL_GRACE_MS } from '../code-mode/sandbox.js'
import { flush } from './helpers.js'
import { runProgram, sandboxRegistry } from './helpers-sandbox.js'

const RUNS = Number(process.env.TOOLREG_SANDBOX_RUNS ?? 40)
const BUDGET_MS = 400
/** The interrupt's grace, the sub-calls' grace, and room for a loaded machine. */
const SETTLE_MS = 100 + SUB_CALL_GRACE_MS + 1_500

const ms = fc.integer({ min: 0, max: 30 })
const subCall = fc.oneof(
  { weight: 4, arbitrary: ms.map((n) => `tools.wait({ ms: ${n} })`) },
  { weight: 2, arbitrary: ms.map((n) => `tools.stubborn({ ms: ${n} })`) },
  { weight: 2, arbitrary: fc.constant('tools.fail({})') },
  { weight: 1, arbitrary: fc.constant('tools.hang({})') },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 200_000 }).map((n) => `tools.big({ n: ${n} })`) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3e6 }).map((n) => `tools.wait({ s: 'x'.repeat(${n}) })`) },
)
const combinator = fc.constantFrom('race', 'any', 'all', 'allSettled')
const statement = fc.oneof(
  subCall.map((call) => `await ${call}.catch(() => 0)`),
  subCall.map((call) => `await ${call}`),
  subCall.map((call) => call),
  fc.tuple(combinator, fc.array(subCall, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([how, calls, awaited]) =>
    awaited ? `await Promise.${how}([${calls.join(', ')}]).catch(() => 0)` : `Promise.${how}([${calls.join(', ')}])`),
)
const program = fc.array(statement, { maxLength: 6 }).map((lines) => `${lines.join('\n')}\nreturn 1`)

describe('CODE run_code: generated programs mixing awaited, unawaited and raced sub-calls', () => {
  it(`${RUNS} programs each end with an outcome, within budget and grace, with every cap held`, async () => {
    await fc.assert(
      fc.asyncProperty(program, async (code) => {
        const { registry, probe } = sandboxRegistry(BUDGET_MS)
        const start = performance.now()
        const result = await runProgram(registry, code)
        expect(typeof result.isError).toBe('boolean')
        expect(performance.now() - start).toBeLessThan(BUDGET_MS + SETTLE_MS)
        expect(probe.running).toBe(0)
        expect(probe.maxRunning).toBeLessThanOrEqual(DEFAULT_LIMITS.subCallsInFlight)
        expect(probe.argumentChars).toBeLessThanOrEqual(DEFAULT_LIMITS.memoryBytes)
        const started = probe.started
        await flush()
        expect(probe.started).toBe(started)
      }),
      { numRuns: RUNS },
    )
    const { registry } = sandboxRegistry(BUDGET_MS)
    const after = await runProgram(registry, 'return await tools.wait({ ms: 0 })')
    expect(after.isError ? undefined : after.value).toEqual({ ms: 0 })
  }, 60_000 + RUNS * 2_000)
})
