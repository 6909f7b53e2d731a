// Reports are written atomically (issue 13, item 6): certify's supervisor, the process that writes
// them, killed with SIGKILL at any moment leaves each report file absent, as the previous run left
// it, or complete and valid — never torn. The kill moments are drawn by fast-check from one seed,
// spread over a whole run and packed into its last stretch, where the files are written. Nothing
// outlives the killed supervisor (issue 24): no process it started, no temporary folder (each run
// has a temporary folder of its own, and a mark in its environment that every process it starts
// inherits).
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { assertValidReport } from '../harness/report/validate-report.js'
import { markedProcesses } from '../harness/safe/process-tree.mjs'
import { sweepStaleRunFolders } from '../harness/supervisor/run-folder.js'

/**
 * `npm run sigkill` kills it 100 times; `npm test` a sample of that, to stay inside its time budget
 * (8 since tests/containment.test.ts joined it: each kill now also waits for the run's processes to end).
 */
const KILLS = Number(process.env.TOOLREG_SIGKILL_RUNS ?? 8)
const PARALLEL = 3
const SEED = 20261202
/** The process that writes the reports: `toolreg certify` starts it from a launcher, which a SIGKILL would leave it to outlive. */
const SUPERVISOR = resolve('harness/cli/certify-supervisor.mjs')
const MUTANT = resolve('fixtures/mutants/fin-twice-on-abort.ts')
/** How long the children of a killed command may take to see it gone and end (their watchdog looks every 100 ms). */
const ORPHANS_END_MS = 10_000
const RUN_TAG = 'TOOLREG_TEST_RUN_TAG'
const REPORTS = { json: 'out/report.json', junit: 'out/report.xml', html: 'out/report.html', markdown: 'out/report.md', badge: 'out/badge.json' }

/** One certify run of a failing clause, so counterexample and corpus files are written too, by a supervisor started alone. */
function certify(cwd: string, seed: number, env: Record<string, string> = {}) {
  const outputs = Object.entries(REPORTS).flatMap(([format, file]) => [`--${format}`, file])
  const args = [SUPERVISOR, 'certify', '--adapter', MUTANT, '--clause', 'FIN-2', '--runs', '20', '--seed', String(seed), ...outputs]
  return execa('node', args, { cwd, reject: false, env: { FORCE_COLOR: '0', ...env } })
}

/** No process of the run (marked with `tag`) and no temporary folder of toolreg's in `tmp` remain, soon after the kill. */
async function expectNothingLeft(tag: string, tmp: string, moment: number): Promise<void> {
  const left = () => ({ processes: markedProcesses(tag, RUN_TAG), folders: readdirSync(tmp).filter((n) => n.startsWith('toolreg-')) })
  const until = Date.now() + ORPHANS_END_MS
  while (Date.now() < until && (left().processes.length > 0 || left().folders.length > 0)) await new Promise((r) => setTimeout(r, 100))
  expect(left().processes, `the processes the command killed at ${moment} ms left behind`).toEqual([])
  // A supervisor killed between one child's end and the next child's start leaves its run folder
  // with no process alive to remove it: the next run's sweep does (supervisor/run-folder.ts).
  if (left().folders.length > 0) sweepStaleRunFolders(tmp)
  expect(left().folders, `the folders the command killed at ${moment} ms left behind, after the next run's sweep`).toEqual([])
}

/** What a report file may be after a kill: absent, the previous run's bytes, or whole and valid. */
function expectIntact(dir: string, previous: ReadonlyMap<string, string>, moment: number): void {
  for (const file of Object.values(REPORTS)) {
    const path = join(dir, file)
    if (!existsSync(path)) continue
    const text = readFileSync(path, 'utf8')
    if (text === previous.get(file)) continue
    const where = `${file} after a kill at ${moment} ms`
    if (file.endsWith('.json')) expect(() => JSON.parse(text), where).not.toThrow()
    if (file === REPORTS.json) expect(() => assertValidReport(JSON.parse(text)), where).not.toThrow()
    if (file.endsWith('.xml')) expect(text.trimEnd().endsWith('</testsuites>'), where).toBe(true)
    if (file.endsWith('.html')) expect(text.trimEnd().endsWith('</html>'), where).toBe(true)
    if (file.endsWith('.md')) expect(text.length, where).toBeGreaterThan(0)
  }
  const saved = join(dir, 'reports/counterexamples')
  for (const name of existsSync(saved) ? readdirSync(saved).filter((n) => n.endsWith('.json')) : []) {
    expect(() => JSON.parse(readFileSync(join(saved, name), 'utf8')), `${name} after a kill at ${moment} ms`).not.toThrow()
  }
}

async function killedAt(template: string, previous: ReadonlyMap<string, string>, moment: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-sigkill-'))
  try {
    await cp(template, dir, { recursive: true })
    const [tag, tmp] = [randomUUID(), join(dir, 'tmp')]
    await mkdir(tmp)
    const run = certify(dir, SEED + 1, { [RUN_TAG]: tag, TMPDIR: tmp })
    const timer = setTimeout(() => run.kill('SIGKILL'), moment)
    await run
    clearTimeout(timer)
    expectIntact(dir, previous, moment)
    await expectNothingLeft(tag, tmp, moment)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const TITLE = `certify killed with SIGKILL at ${KILLS} seeded moments leaves every report absent, the previous one, or complete and valid`

test(`${TITLE}, and no process or temporary folder`, async () => {
  const template = await mkdtemp(join(tmpdir(), 'toolreg-sigkill-previous-'))
  const started = Date.now()
  const first = await certify(template, SEED)
  const wholeRunMs = Date.now() - started
  expect(first.exitCode, 'the undisturbed run fails FIN-2').toBe(1)
  const previous = new Map(Object.values(REPORTS).map((file) => [file, readFileSync(join(template, file), 'utf8')]))
  const spread = fc.integer({ min: 0, max: wholeRunMs })
  const lastStretch = fc.integer({ min: Math.floor(wholeRunMs * 0.7), max: Math.ceil(wholeRunMs * 1.1) })
  const moments = fc.sample(fc.oneof(spread, lastStretch), { numRuns: KILLS, seed: SEED })
  console.log(`sigkill: undisturbed run ${wholeRunMs} ms; ${KILLS} kills, seed ${SEED}`)
  for (let i = 0; i < moments.length; i += PARALLEL) {
    await Promise.all(moments.slice(i, i + PARALLEL).map((moment) => killedAt(template, previous, moment)))
  }
  await rm(template, { recursive: true, force: true })
}, 600_000)
