// The supervisor and the children that run the implementation (harness/supervisor/child-pool.ts):
// whatever a child does — exit 0 in create() or from a timer, block its event loop in a hook,
// outgrow its heap, hang the preflight — the run ends bounded, never with exit 0, naming the
// clause and the stage; the time budget leaves a written report. Asserted on exit codes,
// clause IDs, stages and how the child ended, never on message text.
import type { HostileExpectation } from '../fixtures/hostile/support.js'
import type { CertifyReport } from '../harness/report/build-report.js'
import { describe, expect, test } from 'vitest'
import { certifyHostile, expectHostile } from './hostile-run.js'

/** Every run must end within this, whatever the child does (generous: the test machine is shared). */
const BOUND_MS = 90_000

const certify = (args: string[], env: Record<string, string> = {}) => certifyHostile(args.join(' '), args, BOUND_MS, env)

const hostile = (name: string) => ['--adapter', `fixtures/hostile/${name}.ts`]

describe.concurrent('a child that ends or stalls is that clause\'s failure, never a pass', () => {
  test('process.exit(0) inside create() on its first scenario call: the clause failed with exit code 0, before any stage', async () => {
    const run = await certify([...hostile('child-exit-in-create'), '--workers', '1', '--clause', 'PRE-1', '--runs', '10'])
    expectHostile(run, { exit: 1, fails: ['PRE-1'], stage: null, ended: { exitCode: 0 }, escape: 'process.exit', passes: [] })
  }, BOUND_MS)

  test('a timer that calls process.exit(0) later: the clause whose case set it fails; every clause has a verdict', async () => {
    const run = await certify([...hostile('child-exit-from-timer'), '--workers', '1', '--clause', 'PRE-1', '--clause', 'CODE-3'])
    expectHostile(run, { exit: 1, fails: ['PRE-1'], escape: 'process.exit', passes: [] })
    expect(['passed', 'failed']).toContain(run.clause('CODE-3')?.status)
  }, BOUND_MS)

  test('a synchronous infinite loop in a hook: blocked in its pre-execute stage, its family judged from it, the rest goes on', async () => {
    const clauses = ['--clause', 'PRE-1', '--clause', 'PRE-2', '--clause', 'CODE-3']
    const run = await certify([...hostile('child-sync-loop-in-hook'), '--workers', '1', ...clauses, '--case-timeout', '1s'])
    expectHostile(run, { exit: 1, fails: ['PRE-1', 'PRE-2'], stage: 'pre', escape: null, passes: ['CODE-3'] })
    expect([run.clause('PRE-1'), run.clause('PRE-2')].some((v) => v?.ended?.killed === 'blocked')).toBe(true)
  }, BOUND_MS)

  test('create() that never settles inside a scenario: the case deadline kills the child, the clause failed, the family judged from it', async () => {
    const run = await certify([...hostile('child-create-never-settles'), '--workers', '1', '--clause', 'PRE-1', '--clause', 'PRE-2', '--case-timeout', '1s'])
    expectHostile(run, { exit: 1, fails: ['PRE-1', 'PRE-2'], ended: { killed: 'deadline' }, escape: null, passes: [] })
  }, BOUND_MS)

  test('a heap that outgrows the cap: the clause failed, the child named out of memory', async () => {
    const run = await certify([...hostile('child-heap-grows'), '--workers', '1', '--max-heap', '64', '--clause', 'PRE-1'])
    expectHostile(run, { exit: 1, fails: ['PRE-1'], ended: { outOfMemory: true }, escape: null, passes: [] })
  }, BOUND_MS)
})

test('an adapter module that hooks vitest to rewrite verdicts cannot reach them: its fault still fails MODE-2', async () => {
  const run = await certify([...hostile('child-forges-vitest-verdicts'), '--clause', 'MODE-2', '--clause', 'PRE-1', '--runs', '30'])
  expectHostile(run, { exit: 1, fails: ['MODE-2'], stage: null, escape: null, passes: ['PRE-1'] })
}, BOUND_MS)

describe.concurrent('loading the adapter and the preflight (create() and dispose() once) run in a child too', () => {
  const stopped: HostileExpectation = { exit: 2, fails: [], passes: [] }
  const beforeAnyClause = ['child-dispose-never-settles', 'child-exit-in-preflight', 'child-loop-at-load']
  test.each(beforeAnyClause)('%s: exit 2 with one line and a report that judges nothing, bounded', async (name) => {
    // One child: a second would only repeat the first one's load; a loop at load burns a core
    // until the load silence (5 s unless the environment says otherwise) is over.
    const run = await certify([...hostile(name), '--workers', '1', '--case-timeout', '1s'], { TOOLREG_LOAD_SILENCE_MS: '1500' })
    expectHostile(run, stopped)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  }, BOUND_MS)
})

describe.concurrent('the run\'s bounds and its parallelism', () => {
  test('--time-budget running out: unjudged clauses untested (budget), the report written, exit 2', async () => {
    const run = await certify(['--time-budget', '1s'])
    expect(run.exitCode).toBe(2)
    const budget = run.report?.clauses.filter((c) => c.status === 'untested' && c.reason?.startsWith('untested (budget)')) ?? []
    expect(budget.length).toBeGreaterThan(0)
    expect(run.report?.clauses.filter((c) => c.status === 'failed')).toEqual([])
  }, BOUND_MS)

  test('the report is the same with one child and with two', async () => {
    const args = ['--adapter', 'fixtures/mutants/mode-truthy-classifier.ts', '--clause', 'MODE-1', '--clause', 'MODE-2', '--clause', 'PRE-1', '--runs', '20']
    const [one, two] = await Promise.all([certify([...args, '--workers', '1']), certify([...args, '--workers', '2'])])
    expect(one.exitCode).toBe(1)
    expect(two.exitCode).toBe(one.exitCode)
    const verdicts = (r: CertifyReport | undefined) => r?.clauses.map(({ id, status, reason, numRuns }) => ({ id, status, reason, numRuns }))
    expect(verdicts(two.report)).toEqual(verdicts(one.report))
  }, BOUND_MS)
})
