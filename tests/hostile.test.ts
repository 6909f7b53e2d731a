// Hostile in-process implementations (fixtures/hostile/): each misbehaves in one situation — a
// synchronous loop, a promise that never settles, process.exit, a throwing timer, an unhandled
// rejection, patched globals, a biting result, 50 MB results, thrown values that bite. Certifying
// one must end in bounded time with a complete valid report that names the failing clause, the
// stage and what escaped (report data: no test here reads message text), and the run must go on:
// an unrelated clause checked after the hostile event still passes.
import { readdirSync, readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { HostileExpectation } from '../fixtures/hostile/support.js'
import { jsonSafe } from '../harness/safe/json-safe.js'
import { applyEscapes } from '../harness/engine/death-verdicts.js'
import { certifyHostile, expectHostile } from './hostile-run.js'
import { readCounterexample } from '../harness/store/counterexample.js'
import { isScenarioCase } from '../harness/cli/scenario-clauses.js'

const HOSTILE = 'fixtures/hostile'
// server-*: tests/protocol-hostile.test.ts; child-*: tests/child-supervision.test.ts
const fixtures = readdirSync(HOSTILE).filter((f) => f.endsWith('.ts') && f !== 'support.ts' && !f.startsWith('server-') && !f.startsWith('child-'))
/** A run must end within this, whatever the implementation does (generous: CI machines can be loaded). */
const BOUND_MS = 120_000

describe.concurrent('certifying a hostile in-process implementation', () => {
  test.each(fixtures)('%s: bounded run, complete valid report naming the clause and the stage, the run goes on', async (file) => {
    const { expected } = (await import(/* @vite-ignore */ `../${HOSTILE}/${file}`)) as { expected: HostileExpectation }
    const clauses = [...expected.fails, ...expected.passes].flatMap((id) => ['--clause', id])
    // One child per run: twenty runs go side by side, and a second child would only add its start-up.
    const run = await certifyHostile(file, ['--adapter', join(HOSTILE, file), ...clauses, '--runs', '10', '--workers', '1',
      '--case-timeout', expected.blocksEventLoop ? '1s' : '10s', ...(expected.args ?? [])], BOUND_MS)
    expectHostile(run, expected)
    const verdict = run.clause
    if (expected.blocksEventLoop && expected.ended?.killed === 'blocked') {
      // The case that blocked was saved: a valid replay file that records the adapter it blocked.
      const saved = verdict(expected.fails[0]!)?.counterexample
      expect(saved, 'the blocking case was saved').toBeTypeOf('string')
      const recorded = await readCounterexample(saved!, isScenarioCase)
      expect(resolve(dirname(saved!), recorded.target?.adapter ?? '')).toBe(resolve(HOSTILE, file))
    }
    for (const id of expected.fails) {
      const saved = verdict(id)?.counterexample
      if (saved) expect((await stat(saved)).size, `${id}'s counterexample stays small`).toBeLessThan(1024 * 1024)
      if (saved) expect(() => JSON.parse(readFileSync(saved, 'utf8'))).not.toThrow()
    }
  }, BOUND_MS + 10_000)
})

describe('what the harness does with what hostile implementations leave behind', () => {
  test('an escape outside any property is a harness error; an attributed one fails its clause; other verdicts stay', () => {
    const passed = (clause: string) => ({ clause, level: 'R', profile: 'core', status: 'passed' as const, title: `${clause} …` })
    const { verdicts: results, errors } = applyEscapes([passed('PRE-1'), passed('EXE-1')], [
      { kind: 'uncaught exception', detail: 'boom from a timer', at: { clause: 'PRE-1', title: 'PRE-1 …' } },
      { kind: 'unhandled rejection', detail: 'nobody awaited this' },
    ])
    expect(results.map((r) => [r.clause, r.status])).toEqual([['PRE-1', 'failed'], ['EXE-1', 'passed']])
    expect(results[0]?.violations).toEqual([{ clause: 'PRE-1', detail: 'boom from a timer' }])
    expect(errors).toEqual(['unhandled rejection outside any property: nobody awaited this'])
  })

  test('a JSON-safe copy never throws and stays small: throwing getters, Proxies, cycles, 50 MB strings', () => {
    const getter = Object.defineProperty({ ok: 1 }, 'bad', { enumerable: true, get: () => { throw new Error('getter throws') } })
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('no keys') } })
    const cycle: Record<string, unknown> = { big: 'x'.repeat(50 * 1024 * 1024), gone: undefined }
    cycle.self = cycle
    const text = JSON.stringify(jsonSafe({ getter, proxy, cycle, list: [undefined, 1n] }))
    expect(text.length).toBeLessThan(10_000)
    expect(JSON.parse(text)).toMatchObject({
      getter: { ok: 1, bad: '[threw: getter throws]' },
      proxy: '[unreadable: no keys]',
      cycle: { self: '[cycle]' },
      list: [null, '1n'],
    })
    expect(JSON.parse(text).cycle.big).toMatch(/^x+… \[\d+ characters cut\] …x+$/)
    expect('gone' in JSON.parse(text).cycle).toBe(false)
  })
})
