// Replay reaches every counterexample a run can write: direct (non-scenario) cases of a clause
// that also has scenarios, and registries behind the protocol (`replay --command`).
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { replay } from '../harness/cli/replay.js'
import { UsageError } from '../harness/cli/usage.js'
import { checkProperty, type Failure } from '../harness/engine/check-property.js'
import { toFile, writeCounterexample } from '../harness/store/counterexample.js'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import dropsSyncCode from '../fixtures/mutants/out-sync-throw-drops-code.js'
import truthyClassifier from '../fixtures/mutants/mode-truthy-classifier.js'
import { PROPERTIES } from '../suites/index.js'

const SERVER = 'npx tsx fixtures/remote/reference-server.ts'
const MUTANT_SERVER = 'npx tsx fixtures/remote/adapter-server.ts'

async function failureOf(clause: string, adapter: ConformanceAdapter, accept: (f: Failure) => boolean): Promise<string> {
  const property = PROPERTIES.find((p) => p.id === clause)!
  for (let seed = 1; seed <= 50; seed++) {
    const verdict = await checkProperty(property, adapter, { runs: 100, seed })
    if (verdict.status === 'failed' && accept(verdict.failure)) {
      const dir = await mkdtemp(join(tmpdir(), 'toolreg-replay-'))
      return writeCounterexample(dir, toFile(clause, property.title, 'mutant', verdict.failure))
    }
  }
  throw new Error(`no failure of ${clause} in 50 seeds`)
}

const isDirect = (f: Failure) => typeof f.testCase === 'object' && f.testCase !== null && 'direct' in f.testCase

describe('replay', () => {
  afterEach(() => vi.restoreAllMocks())
  const quiet = () => vi.spyOn(console, 'log').mockImplementation(() => undefined)

  it('OUT-4 a direct case replays: still failing on its mutant, passing on the reference', async () => {
    const file = await failureOf('OUT-4', dropsSyncCode, isDirect)
    quiet()
    expect(await replay(file, { adapter: 'fixtures/mutants/out-sync-throw-drops-code.ts' })).toBe(1)
    expect(await replay(file, {})).toBe(0)
  }, 120_000)

  it('MODE-2 a scenario replays through the protocol with --command: failing on the mutant, passing on the reference', async () => {
    const file = await failureOf('MODE-2', truthyClassifier, () => true)
    quiet()
    expect(await replay(file, { command: `${MUTANT_SERVER} fixtures/mutants/mode-truthy-classifier.ts` })).toBe(1)
    expect(await replay(file, { command: SERVER })).toBe(0)
  }, 120_000)

  it('--adapter and --command together are a usage error', async () => {
    const file = await failureOf('MODE-2', truthyClassifier, () => true)
    await expect(replay(file, { adapter: 'x.ts', command: SERVER })).rejects.toBeInstanceOf(UsageError)
  })
})
