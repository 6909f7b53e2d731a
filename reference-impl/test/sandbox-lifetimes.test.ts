// A sub-call the program does not await, or races against another, may settle after the program
// has ended; its reply must then be dropped, never settled into the program's freed context (that
// was a QuickJSUseAfterFree that killed the host). The programs run in a child process, so a crash
// of the host shows as its exit code; outcome kinds and codes only, never messages.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CHILD = fileURLToPath(new URL('./sandbox-host-child.ts', import.meta.url))
/** Runs the child as a bundle (a third of tsx's start-up), else through tsx. */
const RUN_COMPILED = fileURLToPath(new URL('../../harness/safe/run-compiled.mjs', import.meta.url))

/** Each program and the value it returns (the winner of a race is not asserted: the machine may be loaded). */
const PROGRAMS: Record<string, [string, unknown]> = {
  'an unawaited sub-call': ['tools.wait({ ms: 0 }); return 1', 1],
  'an unawaited sub-call that fails': ['tools.fail({}); return 1', 1],
  'unawaited sub-calls of every speed': ['tools.wait({ ms: 0 }); tools.stubborn({ ms: 20 }); tools.hang({}); return 1', 1],
  'Promise.any of two sub-calls': ['return typeof (await Promise.any([tools.wait({ ms: 0 }), tools.wait({ ms: 0 })])).ms', 'number'],
  'Promise.race of two sub-calls': ['return typeof (await Promise.race([tools.stubborn({ ms: 1 }), tools.stubborn({ ms: 15 })])).ms', 'number'],
  'Promise.race against a failing sub-call': ['return await Promise.race([tools.wait({ ms: 20 }), tools.fail({})]).then(() => 1, () => 1)', 1],
  'a race lost to a sub-call that hangs': ['return await Promise.race([tools.hang({}), tools.wait({ ms: 1 })])', { ms: 1 }],
}

/** Each program nine times in a row (the issue saw the crash in 9 of 9 runs), then `alive`. */
function runInChild(code: string): Promise<{ exit: number | null; lines: string[] }> {
  const programs = JSON.stringify(Array.from({ length: 9 }, () => code))
  return new Promise((resolve) => {
    execFile(process.execPath, [RUN_COMPILED, CHILD, programs], { timeout: 60_000 }, (error, stdout) => {
      const exit = error ? (typeof error.code === 'number' ? error.code : null) : 0
      resolve({ exit, lines: stdout.trim().split('\n') })
    })
  })
}

describe('CODE run_code: unawaited and raced sub-calls never take down the host', () => {
  it.each(Object.entries(PROGRAMS))('%s: nine programs end with an outcome each and the host lives on', async (_name, [code, value]) => {
    const { exit, lines } = await runInChild(code)
    expect(exit).toBe(0)
    expect(lines).toHaveLength(10)
    expect(lines.at(-1)).toBe('alive')
    for (const line of lines.slice(0, -1)) expect(JSON.parse(line)).toEqual({ isError: false, value })
  })
})
