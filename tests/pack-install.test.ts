// toolreg as a user gets it: packed by `npm pack`, installed from the tarball into a project of
// its own (fixtures/installed-project/: its adapter, a tool, a vitest file, a types-only file) and
// driven by the commands the docs and the output print.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CertifyReport } from '../harness/report/build-report.js'
import { assertValidReport } from '../harness/report/validate-report.js'

const INSTALL_MS = 180_000
const TSC = resolve('node_modules/typescript/bin/tsc')
let project: string
let packed: string
const inProject = (file: string, args: string[]) => execa(file, args, { cwd: project, reject: false, env: { FORCE_COLOR: '0' } })
const npx = (...args: string[]) => inProject('npx', ['--no-install', ...args])

beforeAll(async () => {
  packed = await mkdtemp(join(tmpdir(), 'toolreg-pack-'))
  const pack = await execa('npm', ['pack', '--pack-destination', packed, '--json'])
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }]
  project = await mkdtemp(join(tmpdir(), 'toolreg-user-'))
  cpSync('fixtures/installed-project', project, { recursive: true })
  // From npm's cache when it has them (npm ci filled it): the test needs no network, only a fast install.
  const install = ['install', '--save-dev', join(packed, filename), 'vitest@4.1.12', '--prefer-offline', '--no-audit', '--no-fund']
  const installed = await inProject('npm', install)
  expect(installed.exitCode, installed.stderr).toBe(0)
}, INSTALL_MS)

// Removed here, while other files run, rather than with the run's temporary folder at its very end.
afterAll(async () => {
  await Promise.all([project, packed].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 })))
})

describe('installed from its tarball into a project of its own', () => {
  it('certify --clause runs the project\'s adapter on bundles of the harness, writes a valid report, prints its replay command', async () => {
    const run = await npx('toolreg', 'certify', '--adapter', 'conformance/adapter.ts', '--clause', 'FIN-2', '--clause', 'PRE-1',
      '--runs', '60', '--seed', '3', '--json', 'r.json')
    expect(run.exitCode, run.stderr).toBe(1)
    const report = JSON.parse(readFileSync(join(project, 'r.json'), 'utf8')) as CertifyReport
    assertValidReport(report)
    expect(report.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['FIN-2'])
    expect(report.clauses.find((c) => c.id === 'PRE-1')?.status).toBe('passed')
    const cache = join(project, 'node_modules/toolreg/node_modules/.cache/toolreg')
    const builds = readdirSync(cache).filter((f) => f.startsWith('harness_cli_main-') && !f.endsWith('.json'))
    expect(builds.some((build) => readdirSync(join(cache, build)).includes('main.mjs')), 'the command ran as a bundle').toBe(true)
    // The command the output prints reproduces the failure as printed, on the adapter it was found on.
    const printed = /replay: npx toolreg (replay \S+)$/m.exec(run.stdout)?.[1]
    expect(printed, run.stdout).toBeTypeOf('string')
    const replayed = await npx('toolreg', ...printed!.split(' '))
    expect(replayed.exitCode, replayed.stderr).toBe(1)
    expect(replayed.stdout).toMatch(/^FIN-2 failed/m)
  }, INSTALL_MS)

  it('check-tool checks the project\'s tool module (exit 0: no claim refuted)', async () => {
    const run = await npx('toolreg', 'check-tool', 'tools/capital.ts', '--runs', '20', '--seed', '1', '--json', 'claims.json')
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(existsSync(join(project, 'claims.json'))).toBe(true)
  }, INSTALL_MS)

  it('toolreg/vitest registers a test per clause with the project\'s own vitest, which passes them', async () => {
    const run = await npx('vitest', 'run', '--reporter=json')
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0)
    const results = JSON.parse(run.stdout) as { numPassedTests: number; numFailedTests: number }
    expect([results.numPassedTests, results.numFailedTests]).toEqual([2, 0])
  }, INSTALL_MS)

  it('`import type` from toolreg and toolreg/vitest type-checks with nothing else installed (no @types/node)', async () => {
    expect(existsSync(join(project, 'node_modules/@types/node'))).toBe(false)
    const run = await inProject('node', [TSC, '-p', 'tsconfig.json'])
    expect(run.exitCode, run.stdout).toBe(0)
  }, INSTALL_MS)
})
