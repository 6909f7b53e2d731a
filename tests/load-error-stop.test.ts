// A child whose adapter did not load still answers the supervisor's stop: it exits by itself, code
// 0, instead of being killed once the stop grace ran out (which held every load error 5 s).
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import { SupervisedChild } from '../harness/supervisor/supervised-child.js'
import { makeRunFolder, removeRunFolder } from '../harness/supervisor/run-folder.js'

const GRACE_MS = 20_000

test('a child that answered load-error exits on stop, not by the grace\'s SIGKILL', async () => {
  const runDir = makeRunFolder()
  const child = new SupervisedChild({
    target: { adapterPath: resolve('fixtures/adapters/broken/no-default-export.ts'), validateProtocol: false },
    runDir,
    stallReportMs: 1_000,
    loadSilenceMs: 10_000,
    maxOldSpaceMb: 1_024,
    onEscape: () => undefined,
    onIdleDeath: () => undefined,
    onStray: () => undefined,
  })
  try {
    expect(await child.ready).toMatchObject({ type: 'load-error' })
    await child.stop(GRACE_MS)
    expect((await child.exited).ended).toEqual({ exitCode: 0, signal: null })
  } finally {
    removeRunFolder(runDir)
  }
}, GRACE_MS + 10_000)
