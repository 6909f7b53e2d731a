// A run on an overloaded machine never fails a conforming registry (issue 22): certifying the
// reference with a short case timeout passes every clause when its supervisor and children are
// pinned to one CPU with eight CPU hogs (a fair share of a ninth of a core), and when the
// supervisor alone is stopped again and again (the limit of a starved supervisor, which runs its
// timers before it reads the heartbeats queued meanwhile). A block is judged on the child's own
// time (harness/safe/own-time.mjs), where the heartbeat is seen: a starved child is not a blocked
// one. The synchronous loops that must still be caught are in child-supervision.test.ts and
// hostile.test.ts.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, expect, test } from 'vitest'
import type { CertifyReport } from '../harness/report/build-report.js'
import { pinned, pinning } from './one-cpu.js'

const BOUND_MS = 120_000
const CLAUSES = ['DEF-2', 'PRE-1', 'CODE-3']
const ARGS = ['harness/cli/toolreg.mjs', 'certify', '--no-corpus', '--seed', '1', '--case-timeout', '1s']
/** Without taskset the hogs spread over every CPU: as many per CPU as pinned ones on one. */
const HOGS = pinning ? 8 : 8 * availableParallelism()
const hogs: ChildProcess[] = []

afterAll(() => {
  for (const hog of hogs) hog.kill('SIGKILL')
})

/** The report's rows of `clauses`: id, status, and how the child ended (null: it did not). */
async function rows(json: string, clauses: readonly string[]) {
  const report = JSON.parse(await readFile(json, 'utf8')) as CertifyReport
  return clauses.map((id) => report.clauses.find((c) => c.id === id)).map((c) => [c?.id, c?.status, c?.ended ?? null])
}

const passedAll = (clauses: readonly string[]) => clauses.map((id) => [id, 'passed', null])
const reportFile = async () => join(await mkdtemp(join(tmpdir(), 'toolreg-starved-')), 'report.json')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test(`the reference certified on one CPU shared with ${HOGS} CPU hogs, --case-timeout 1s: ${CLAUSES.join(', ')} pass, no child killed`, async () => {
  for (let i = 0; i < HOGS; i++) hogs.push(spawn(...pinned(process.execPath, ['-e', 'for (;;) {}']), { stdio: 'ignore' }))
  const json = await reportFile()
  const clauses = CLAUSES.flatMap((id) => ['--clause', id])
  const run = await execa(...pinned('node', [...ARGS, '--runs', '10', '--json', json, ...clauses]), {
    reject: false, env: { FORCE_COLOR: '0' }, timeout: BOUND_MS,
  })
  for (const hog of hogs) hog.kill('SIGKILL')
  expect(run.timedOut, 'the run ended within its bound').toBe(false)
  expect(run.exitCode, `the exit code (stderr: ${run.stderr.slice(-600)})`).toBe(0)
  expect(await rows(json, CLAUSES)).toEqual(passedAll(CLAUSES))
}, BOUND_MS + 10_000)

test('a supervisor stopped for 1.5 s every 0.7 s, --case-timeout 1s: its children, which went on beating, are not killed', async () => {
  const clauses = ['PRE-1', 'PRE-2', 'DEF-2', 'CODE-3', 'MODE-1']
  const json = await reportFile()
  // The supervisor itself, not the launcher that `toolreg certify` starts it from: stopping that one would stop nothing.
  const supervisor = ['harness/cli/certify-supervisor.mjs', ...ARGS.slice(1)]
  const run = execa('node', [...supervisor, '--workers', '1', '--json', json, ...clauses.flatMap((id) => ['--clause', id])], {
    reject: false, env: { FORCE_COLOR: '0' }, timeout: BOUND_MS,
  })
  let running = true
  void run.finally(() => (running = false))
  while (running) {
    await sleep(700)
    if (running) run.kill('SIGSTOP')
    await sleep(1500)
    run.kill('SIGCONT')
  }
  const ended = await run
  expect(ended.timedOut, 'the run ended within its bound').toBe(false)
  expect(ended.exitCode, `the exit code (stderr: ${ended.stderr.slice(-600)})`).toBe(0)
  expect(await rows(json, clauses)).toEqual(passedAll(clauses))
}, BOUND_MS + 10_000)
