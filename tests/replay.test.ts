// Replay reaches every counterexample a run can write: direct (non-scenario) cases of a clause
// that also has scenarios, and registries behind the protocol (`replay --command`).
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { replay } from '../harness/cli/replay.js'
import { UsageError } from '../harness/cli/usage.js'
import { checkProperty, type Failure } from '../harness/engine/check-property.js'
import { toFile, writeCounterexample, type RunTarget } from '../harness/store/counterexample.js'
import { AdapterLoadError } from '../harness/safe/load-adapter.js'
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import dropsSyncCode from '../fixtures/mutants/out-sync-throw-drops-code.js'
import truthyClassifier from '../fixtures/mutants/mode-truthy-classifier.js'
import { PROPERTIES } from '../suites/index.js'

const SERVER = 'npx tsx fixtures/remote/reference-server.ts'
const MUTANT_SERVER = 'npx tsx fixtures/remote/adapter-server.ts'

/** A failure of `clause` on `adapter`, saved as `name` found it on `target` (an adapter module or a server command). */
async function failureOf(clause: string, adapter: ConformanceAdapter, accept: (f: Failure) => boolean, saved: Saved): Promise<string> {
  const property = PROPERTIES.find((p) => p.id === clause)!
  for (let seed = 1; seed <= 50; seed++) {
    const verdict = await checkProperty(property, adapter, { runs: 100, seed })
    if (verdict.status === 'failed' && accept(verdict.failure)) {
      const dir = await mkdtemp(join(tmpdir(), 'toolreg-replay-'))
      return writeCounterexample(dir, toFile(clause, property.title, saved.name, verdict.failure), saved.target)
    }
  }
  throw new Error(`no failure of ${clause} in 50 seeds`)
}

interface Saved {
  name: string
  /** Absent: a file from before targets were recorded. */
  target?: RunTarget
}

const isDirect = (f: Failure) => typeof f.testCase === 'object' && f.testCase !== null && 'direct' in f.testCase
const DROPS_CODE = 'fixtures/mutants/out-sync-throw-drops-code.ts'
const onDropsCode: Saved = { name: dropsSyncCode.name, target: { adapterPath: resolve(DROPS_CODE) } }
/** The same registry once its bug is fixed: the adapter keeps its name. */
const fixed = (name: string): Saved => ({ name, target: {} })

describe('replay', () => {
  afterEach(() => vi.restoreAllMocks())
  const quiet = () => vi.spyOn(console, 'log').mockImplementation(() => undefined)

  it('OUT-4 a direct case replays on the adapter it records: still failing; the same adapter fixed passes', async () => {
    quiet()
    expect(await replay(await failureOf('OUT-4', dropsSyncCode, isDirect, onDropsCode))).toBe(1)
    const found = await failureOf('OUT-4', dropsSyncCode, isDirect, fixed('reference'))
    expect(await replay(found)).toBe(0)
  })

  it('MODE-2 a scenario replays through the protocol server it records: failing on the mutant, passing once fixed', async () => {
    quiet()
    const command = `${MUTANT_SERVER} fixtures/mutants/mode-truthy-classifier.ts`
    expect(await replay(await failureOf('MODE-2', truthyClassifier, () => true, { name: truthyClassifier.name, target: { command } }))).toBe(1)
    expect(await replay(await failureOf('MODE-2', truthyClassifier, () => true, { name: 'reference', target: { command: SERVER } }))).toBe(0)
  })

  it('a given adapter of another name, a recorded module that is gone, an unrecorded module: refused as input errors', async () => {
    const file = await failureOf('OUT-4', dropsSyncCode, isDirect, onDropsCode)
    await expect(replay(file, { adapter: 'reference-impl/adapters/reference.ts' })).rejects.toBeInstanceOf(AdapterLoadError)
    const gone = await failureOf('OUT-4', dropsSyncCode, isDirect, { ...onDropsCode, target: { adapterPath: resolve('no/such/adapter.ts') } })
    await expect(replay(gone)).rejects.toBeInstanceOf(AdapterLoadError)
    const unrecorded = await failureOf('OUT-4', dropsSyncCode, isDirect, { name: dropsSyncCode.name })
    await expect(replay(unrecorded)).rejects.toBeInstanceOf(AdapterLoadError)
  })

  it('--adapter and --command together are a usage error', async () => {
    const file = await failureOf('MODE-2', truthyClassifier, () => true, fixed('reference'))
    await expect(replay(file, { adapter: 'x.ts', command: SERVER })).rejects.toBeInstanceOf(UsageError)
  })
})
