// Certifying a hostile implementation and checking what the run shows against a
// HostileExpectation: the exit code, the failing and passing clause IDs, the stage, how the child
// ended and what escaped — report data only, never message text. Every report read is checked
// against its JSON Schema (ajv), and every run prints its wall time against its bound.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { expect } from 'vitest'
import type { HostileExpectation } from '../fixtures/hostile/support.js'
import type { CertifyReport, ClauseVerdict } from '../harness/report/build-report.js'
import { assertValidReport } from '../harness/report/validate-report.js'

export interface HostileRun {
  exitCode: number | undefined
  stderr: string
  report: CertifyReport | undefined
  clause: (id: string) => ClauseVerdict | undefined
  elapsedMs: number
  /** Where the JSON report was asked for. */
  json: string
}

/** A report row's stage without the call it was in: "body#0 of c1" → "body"; no stage → null. */
export const stageName = (stage: string | undefined): string | null => (stage === undefined ? null : (stage.split('#')[0] ?? stage))

/** Runs `toolreg certify` with `args` (seed 1 unless given, no corpus, a JSON report), bounded by `boundMs`. */
export async function certifyHostile(label: string, args: string[], boundMs: number, env: Record<string, string> = {}): Promise<HostileRun> {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-hostile-'))
  const json = join(dir, 'report.json')
  const started = Date.now()
  const seed = args.includes('--seed') ? [] : ['--seed', '1']
  const run = await execa('node', ['harness/cli/toolreg.mjs', 'certify', ...seed, '--no-corpus', '--json', json, ...args], {
    reject: false, env: { FORCE_COLOR: '0', ...env }, timeout: boundMs,
  })
  const elapsedMs = Date.now() - started
  console.log(`hostile ${label}: exit ${run.exitCode} in ${(elapsedMs / 1000).toFixed(1)} s (bound ${boundMs / 1000} s)`)
  expect(run.timedOut, 'the run ended within its bound').toBe(false)
  expect(run.signal, 'the harness process survived').toBeUndefined()
  expect(run.stderr).not.toMatch(/internal error/)
  const report = existsSync(json) ? (JSON.parse(await readFile(json, 'utf8')) as unknown) : undefined
  if (report !== undefined) assertValidReport(report, `${label}'s report`)
  if (report !== undefined) expect((await stat(json)).size, 'the report stays small').toBeLessThan(1024 * 1024)
  const clause = (id: string) => (report as CertifyReport | undefined)?.clauses.find((c) => c.id === id)
  return { exitCode: run.exitCode, stderr: run.stderr, report: report as CertifyReport | undefined, clause, elapsedMs, json }
}

/** The run shows what `expected` says, in report data. */
export function expectHostile(run: HostileRun, expected: HostileExpectation): void {
  expect(run.exitCode, `the exit code (stderr: ${run.stderr.slice(-600)})`).toBe(expected.exit)
  expect(run.report, 'a report was written').toBeDefined()
  for (const id of expected.broken ?? []) {
    expect(run.clause(id)?.status, `${id} has no verdict: the adapter failed there`).toBe('untested')
    expect(run.report?.errors.filter((e) => e.startsWith(`${id}: `)), `${id} is named in the errors`).toHaveLength(1)
  }
  if (expected.fails.length === 0 && expected.passes.length === 0) {
    // Stopped before any clause: the report names the error and judges nothing.
    expect(run.report?.errors.length, 'the error is in the report').toBeGreaterThan(0)
    expect(run.report?.clauses.filter((c) => c.status !== 'untested'), 'no clause judged').toEqual([])
    return
  }
  for (const id of [...expected.fails, ...expected.passes]) expect(['passed', 'failed'], `${id} has a verdict`).toContain(run.clause(id)?.status)
  for (const id of expected.fails) expect(run.clause(id)?.status, `${id} fails`).toBe('failed')
  for (const id of expected.passes) expect(run.clause(id)?.status, `${id}, after the hostile event, passes`).toBe('passed')
  if (expected.fails.length === 0) return
  const first = run.clause(expected.fails[0]!)
  const row = (id: string) => JSON.stringify(run.clause(id)).slice(0, 600)
  if (expected.stage !== undefined) for (const id of expected.fails) expect(stageName(run.clause(id)?.stage), `${id}'s stage (${row(id)})`).toBe(expected.stage)
  if (expected.ended) expect(first?.ended, `how the child ended in ${expected.fails[0]}`).toMatchObject(expected.ended)
  if (expected.escape !== undefined) expect(first?.escape ?? null, `what escaped in ${expected.fails[0]}`).toBe(expected.escape)
  if (expected.exit === 1) expect(run.report?.errors, 'no harness errors').toEqual([])
}
