// Certification through the protocol: the reference served out of process gets the verdicts it
// gets in process, mutants served the same way are still rejected on their targets, and the
// command line drives it all with --command.
import { readFile, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa, execaSync } from 'execa'
import { afterAll, describe, expect, it } from 'vitest'
import reference from '../reference-impl/adapters/reference.js'
import { killCheck } from '../harness/mutation/kill.js'
import { connectRemote, type RemoteAdapter } from '../harness/protocol/remote-adapter.js'
import type { CertifyReport } from '../harness/report/build-report.js'
import { toolregInProcess } from './in-process-cli.js'
import { checkProperty } from '../harness/engine/check-property.js'
import { PROPERTIES } from '../suites/index.js'

const SEED = 20261201
const hasPython = () => execaSync('python3', ['--version'], { reject: false }).exitCode === 0
const RUNS = 3
/** A server of this package's TypeScript, started as a bundle (harness/safe/run-compiled.mjs). */
const serve = (module?: string) =>
  `node harness/safe/run-compiled.mjs ${module ? `fixtures/remote/adapter-server.ts ${module}` : 'fixtures/remote/reference-server.ts'}`
const opened: RemoteAdapter[] = []
const remote = (command: string) => {
  const adapter = connectRemote({ command })
  opened.push(adapter)
  return adapter
}
afterAll(() => opened.forEach((a) => a.close()))

describe('the reference through the protocol', () => {
  it(`gives every property the verdict it gets in process (${RUNS} cases each, seed ${SEED})`, async () => {
    const adapter = remote(serve())
    expect({ name: adapter.name, version: adapter.version, profiles: adapter.profiles }).toEqual({
      name: reference.name,
      version: reference.version,
      profiles: reference.profiles,
    })
    const verdicts = async (a: typeof reference) => {
      const out: Record<string, string> = {}
      for (const property of PROPERTIES) {
        const verdict = await checkProperty(property, a, { runs: Math.min(RUNS, property.maxRuns ?? RUNS), seed: SEED })
        out[property.id] = verdict.status === 'failed'
          ? `failed: ${verdict.failure.violations[0]?.detail}`
          : verdict.status === 'error' ? `error: ${verdict.error}` : verdict.status
      }
      return out
    }
    const inProcess = await verdicts(reference)
    const outOfProcess = await verdicts(adapter)
    expect(outOfProcess).toEqual(inProcess)
    expect(Object.values(outOfProcess).every((v) => v === 'passed')).toBe(true)
    expect(adapter.starts).toBe(1)
  })

  // A protocol copy of an outcome is a Proxy: checks that read a published outcome read it through (META-2's direct case).
  it('passes META-2, SCH-2 and CODE-4 at the default depth, whose checks read published values', async () => {
    const adapter = remote(serve())
    for (const id of ['META-2', 'SCH-2', 'CODE-4']) {
      const property = PROPERTIES.find((p) => p.id === id)!
      const verdict = await checkProperty(property, adapter, { runs: property.maxRuns ?? 100, seed: SEED })
      expect(verdict.status, id).toBe('passed')
    }
  })
})

describe.concurrent('mutants through the protocol are still rejected on their targets', () => {
  it.each([
    ['mode-truthy-classifier', ['MODE-2']],
    ['res-observer-copy', ['RES-1']],
    ['in-reused-token', ['IN-3']],
    ['sch-shared-parameters', ['SCH-2']],
  ])('%s', async (name, targets) => {
    const module = await import(`../fixtures/mutants/${name}.ts`)
    expect(module.targets).toEqual(targets)
    const results = await killCheck(remote(serve(`fixtures/mutants/${name}.ts`)), targets, { runs: 100, seed: SEED })
    expect(results.filter((r) => !r.killed).map((r) => `${r.clause}: ${r.detail ?? 'survived'}`)).toEqual([])
    expect(results.map((r) => r.clause)).toEqual(targets)
  })
})

describe('toolreg --command', () => {
  const toolreg = (...args: string[]) => execa('node', ['harness/cli/toolreg.mjs', ...args], { reject: false, env: { FORCE_COLOR: '0' } })

  it('certify takes the identity from the handshake and reports like the in-process run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolreg-protocol-'))
    const run = await toolreg(
      'certify',
      '--command',
      serve(),
      '--validate-protocol',
      '--runs',
      '5',
      '--seed',
      '3',
      '--no-corpus',
      '--clause',
      'RES-1',
      '--json',
      join(dir, 'r.json'),
    )
    expect(run.exitCode).toBe(0)
    const report = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as CertifyReport
    expect(report.adapter).toEqual({ name: 'reference', version: '0.1.0', profiles: [...reference.profiles] })
    expect(report.clauses.filter((c) => c.status === 'passed').map((c) => c.id)).toEqual(['RES-1'])
    expect(report.clauses.filter((c) => c.status !== 'passed').every((c) => c.status === 'untested')).toBe(true)
  })

  it('smoke checks the wiring through the server', async () => {
    const run = await toolreg('smoke', '--command', serve())
    expect(run.stdout).toMatch(/reference is wired correctly/)
    expect(run.exitCode).toBe(0)
  })

  // Never skipped: where python3 is missing, the same command is the harness's one line for a server that cannot start.
  it('a server in another language: the Python toy registry passes smoke, every message checked against the schemas', async () => {
    const run = await toolreg('smoke', '--command', 'python3 fixtures/remote/python/smoke_registry.py', '--validate-protocol')
    if (hasPython()) {
      expect(run.stdout).toMatch(/python-smoke is wired correctly/)
      expect(run.exitCode).toBe(0)
    } else {
      expect(run.stderr).toMatch(/server "python3 fixtures\/remote\/python\/smoke_registry\.py" did not complete the handshake: the server failed to start/)
      expect(run.exitCode).toBe(2)
    }
  })

  it('--adapter and --command together are a usage error', async () => {
    const run = await toolregInProcess('certify', '--adapter', 'reference-impl/adapters/reference.ts', '--command', serve())
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(/either --adapter or --command/)
  })
})
