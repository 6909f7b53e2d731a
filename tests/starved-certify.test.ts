// A run on an overloaded machine never fails a conforming registry (issue 22): certifying the
// reference with a short case timeout, its supervisor and children pinned to one CPU with eight
// CPU hogs (a fair share of a ninth of a core), passes every clause. A block is judged on the
// child's own time (harness/safe/own-time.mjs): a starved child is not a blocked one. The
// synchronous loops that must still be caught are in child-supervision.test.ts and hostile.test.ts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, expect, test } from 'vitest'
import type { CertifyReport } from '../harness/report/build-report.js'

const BOUND_MS = 120_000
const CLAUSES = ['DEF-2', 'PRE-1', 'CODE-3']
const pinning = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return true
  } catch {
    return false
  }
})()
/** Without taskset the hogs spread over every CPU: as many per CPU as pinned ones on one. */
const HOGS = pinning ? 8 : 8 * availableParallelism()
/** The command and its arguments, on CPU 0 when pinning is possible. */
const pinned = (command: string, args: string[]): [string, string[]] => (pinning ? ['taskset', ['-c', '0', command, ...args]] : [command, args])
const hogs: ChildProcess[] = []

afterAll(() => {
  for (const hog of hogs) hog.kill('SIGKILL')
})

test(`the reference certified on one CPU shared with ${HOGS} CPU hogs, --case-timeout 1s: ${CLAUSES.join(', ')} pass, no child killed`, async () => {
  for (let i = 0; i < HOGS; i++) hogs.push(spawn(...pinned(process.execPath, ['-e', 'for (;;) {}']), { stdio: 'ignore' }))
  const json = join(await mkdtemp(join(tmpdir(), 'toolreg-starved-')), 'report.json')
  const args = ['harness/cli/toolreg.mjs', 'certify', '--no-corpus', '--seed', '1', '--runs', '20', '--case-timeout', '1s', '--json', json]
  const run = await execa(...pinned('node', [...args, ...CLAUSES.flatMap((id) => ['--clause', id])]), {
    reject: false, env: { FORCE_COLOR: '0' }, timeout: BOUND_MS,
  })
  expect(run.timedOut, 'the run ended within its bound').toBe(false)
  expect(run.exitCode, `the exit code (stderr: ${run.stderr.slice(-600)})`).toBe(0)
  const report = JSON.parse(await readFile(json, 'utf8')) as CertifyReport
  const judged = report.clauses.filter((c) => CLAUSES.includes(c.id))
  expect(judged.map((c) => [c.id, c.status, c.ended ?? null])).toEqual(CLAUSES.map((id) => [id, 'passed', null]))
}, BOUND_MS + 10_000)
