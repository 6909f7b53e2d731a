// Containment (issue 24): what an implementation does to the process that runs it — talk on the
// harness's IPC channel, drop it, kill its parent, start helpers that outlive it, rewrite files
// the supervisor reads or writes, flood its stdio — ends the run bounded, with a report naming
// the clause and the stage or a one-line harness error, never exit 0, a raw crash or a leftover
// process. Asserted on exit codes, clause IDs and stages only.
import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import type { HostileExpectation } from '../fixtures/hostile/support.js'
import type { CertifyReport } from '../harness/report/build-report.js'
import { markedProcesses } from '../harness/safe/process-tree.mjs'
import { certifyHostile, expectHostile } from './hostile-run.js'

/** Every case must end within this (the bound). */
const BOUND_MS = 60_000
/** Every process a run starts inherits this variable: none may be left once the command exited. */
const RUN_TAG = 'TOOLREG_TEST_RUN_TAG'
/** How long the processes of a run whose launcher was killed may take to end. */
const ORPHANS_END_MS = 10_000
/**
 * A helper outside the child's process group is SIGKILLed as the child ends, but a loaded machine
 * may still be tearing it down when the command exits (seen once, under a profiler). One that
 * survives is still there after this, and the report-rewriting helper would also show in the report.
 */
const KILLED_TEARDOWN_MS = 2_000

async function certifyFixture(name: string, env: Record<string, string> = {}, clauses?: string[]) {
  const { expected } = (await import(/* @vite-ignore */ `../fixtures/hostile/${name}.ts`)) as { expected?: HostileExpectation }
  const ids = clauses ?? [...(expected?.fails ?? []), ...(expected?.passes ?? [])]
  const args = ['--adapter', `fixtures/hostile/${name}.ts`, ...ids.flatMap((id) => ['--clause', id]), '--runs', '10', '--workers', '1']
  const tag = randomUUID()
  const run = await certifyHostile(name, [...args, ...(expected?.args ?? [])], BOUND_MS, { ...env, [RUN_TAG]: tag })
  await until(() => markedProcesses(tag, RUN_TAG).length === 0, KILLED_TEARDOWN_MS)
  expect(markedProcesses(tag, RUN_TAG), 'processes the run started, left after it').toEqual([])
  return { run, expected: expected! }
}

describe.concurrent('the harness\'s process controls are not the implementation\'s', () => {
  const trapped = ['child-sends-ready-in-preflight', 'child-sends-null-mid-clause', 'child-writes-on-channel', 'child-disconnects-in-classifier']
  test.each(trapped)('%s: a message or a disconnect fails the clause it happened in, the run goes on', async (name) => {
    const { run, expected } = await certifyFixture(name)
    expectHostile(run, expected)
  }, BOUND_MS)

  test.each(['SIGTERM', 'SIGKILL'])('process.kill(process.ppid, %s) fails the clause, the supervisor lives on', async (signal) => {
    const { run, expected } = await certifyFixture('child-kills-parent', { TOOLREG_HOSTILE_SIGNAL: signal })
    expectHostile(run, expected)
  }, BOUND_MS)
})

test('watchdog files replaced with FIFOs: the supervisor reads none of them, the exit still fails its clause in its stage', async () => {
  const { run, expected } = await certifyFixture('child-watchdog-fifo')
  expectHostile(run, expected)
}, BOUND_MS)

test('a correct registry flooding stdout and stderr (1 MB each per create(), then a failing stream): DEF-2 and PRE-2 pass, exit 0', async () => {
  const { run } = await certifyFixture('child-floods-stdio', {}, ['DEF-2', 'PRE-2'])
  expect(run.exitCode, run.stderr.slice(-600)).toBe(0)
  expect([run.clause('DEF-2')?.status, run.clause('PRE-2')?.status]).toEqual(['passed', 'passed'])
}, BOUND_MS)

/** The run of `fixture` on PRE-1 and SCP-2 (whose case kills the supervisor) ended in exit 2 and one line naming SCP-2. */
async function supervisorKilledIn(fixture: string) {
  const { run } = await certifyFixture(fixture, {}, ['PRE-1', 'SCP-2'])
  expect(run.exitCode).toBe(2)
  const lines = run.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('SCP-2')
  return run
}

test('SIGTERM to the supervisor through a shell, past the traps: one line naming the clause held, exit 2, nothing left', async () => {
  await supervisorKilledIn('child-kills-parent-by-shell')
}, BOUND_MS)

test('SIGKILL to the supervisor through a shell: the launcher names the clause held in one line, exit 2, nothing left', async () => {
  const run = await supervisorKilledIn('child-sigkills-parent-by-shell')
  expect(run.report, 'no report').toBeUndefined()
}, BOUND_MS)

test('the launcher killed with SIGKILL mid-clause: the supervisor stops the run, no process or run folder left', async () => {
  const [tag, tmp] = [randomUUID(), await mkdtemp(join(tmpdir(), 'toolreg-launcher-'))]
  const args = ['harness/cli/toolreg.mjs', 'certify', '--clause', 'PRE-1', '--runs', '1000000', '--no-corpus', '--workers', '1']
  const run = execa('node', args, { reject: false, stdio: 'ignore', env: { FORCE_COLOR: '0', [RUN_TAG]: tag, TMPDIR: tmp } })
  // The launcher, the supervisor and its child: the clause is being checked.
  await until(() => markedProcesses(tag, RUN_TAG).length >= 3, BOUND_MS / 2)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  run.kill('SIGKILL')
  expect((await run).signal).toBe('SIGKILL')
  await until(() => markedProcesses(tag, RUN_TAG).length === 0, ORPHANS_END_MS)
  expect(markedProcesses(tag, RUN_TAG), 'processes the run started, left after the launcher died').toEqual([])
  expect(readdirSync(tmp).filter((name) => name.startsWith('toolreg-')), 'run folders left').toEqual([])
  await rm(tmp, { recursive: true, force: true })
}, BOUND_MS)

/** Waits until `done()` holds or `ms` passed. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100))
}

describe.concurrent('memory', () => {
  test('--max-heap 1, too small to start a child: one line naming the flag, exit 2, a report that judges nothing', async () => {
    const run = await certifyHostile('max-heap-1', ['--max-heap', '1', '--clause', 'PRE-1', '--workers', '1'], BOUND_MS)
    expectHostile(run, { exit: 2, fails: [], passes: [] })
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.report?.errors[0]).toContain('--max-heap 1')
  }, BOUND_MS)

  test('Buffers that outgrow the process cap (outside the heap): the clause failed, the child named out of memory', async () => {
    const { run, expected } = await certifyFixture('child-buffers-grow')
    expectHostile(run, expected)
  }, BOUND_MS)
})

describe.concurrent('what the implementation starts ends with the run', () => {
  test('helper daemons started with the child\'s stdio, in its process group and out of it: the run ends, exit 0, nothing left', async () => {
    const { run } = await certifyFixture('child-starts-helpers', {}, ['PRE-1', 'CODE-3'])
    expect(run.exitCode).toBe(0)
    expect([run.clause('PRE-1')?.status, run.clause('CODE-3')?.status]).toEqual(['passed', 'passed'])
  }, BOUND_MS)

  test('a protocol server that outlives its input ends with the process that started it, even one that exits right after closing it', async () => {
    const tag = randomUUID()
    const server = ['node', 'harness/safe/run-compiled.mjs', 'fixtures/hostile/server-outlives-input.ts']
    const host = await execa('node', ['harness/safe/run-compiled.mjs', 'tests/close-then-exit.ts', ...server], { reject: false, env: { [RUN_TAG]: tag } })
    expect(host.exitCode, host.stderr).toBe(0)
    // SIGKILLed as the host exited: gone within moments, where a server left to itself runs on.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(markedProcesses(tag, RUN_TAG), 'the server is gone').toEqual([])
  }, BOUND_MS)

  test('a helper that left the process group to rewrite the --json report after the command exits is ended first', async () => {
    const { run, expected } = await certifyFixture('child-rewrites-report')
    expectHostile(run, expected)
    await new Promise((resolve) => setTimeout(resolve, 500)) // the helper looked every 20 ms
    const after = JSON.parse(await readFile(run.json, 'utf8')) as CertifyReport
    expect(after.clauses.find((c) => c.id === 'SCP-2')?.status, 'SCP-2 in the report, later').toBe('failed')
  }, BOUND_MS)
})
