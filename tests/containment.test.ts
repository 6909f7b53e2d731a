// Containment (issue 24): what an implementation does to the process that runs it — talk on the
// harness's IPC channel, drop it, kill its parent, start helpers that outlive it, rewrite files
// the supervisor reads or writes, flood its stdio — ends the run bounded, with a report naming
// the clause and the stage or a one-line harness error, never exit 0, a raw crash or a leftover
// process. Asserted on exit codes, clause IDs and stages only.
import { describe, expect, test } from 'vitest'
import type { HostileExpectation } from '../fixtures/hostile/support.js'
import { certifyHostile, expectHostile } from './hostile-run.js'

/** Every case must end within this (the bound). */
const BOUND_MS = 60_000

async function certifyFixture(name: string, env: Record<string, string> = {}) {
  const { expected } = (await import(/* @vite-ignore */ `../fixtures/hostile/${name}.ts`)) as { expected: HostileExpectation }
  const clauses = [...expected.fails, ...expected.passes].flatMap((id) => ['--clause', id])
  const args = ['--adapter', `fixtures/hostile/${name}.ts`, ...clauses, '--runs', '10', '--workers', '1', ...(expected.args ?? [])]
  return { run: await certifyHostile(name, args, BOUND_MS, env), expected }
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
