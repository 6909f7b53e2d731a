/**
 * Coverage of a registry behind the protocol (`--command`): the server processes a run spawns
 * inherit NODE_V8_COVERAGE, so a server on Node writes V8 coverage when it exits; c8 turns it
 * into the same reports as in-process coverage. A server on another runtime records nothing,
 * and the report says so.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COVERAGE_DIR } from './coverage.js'

export interface RemoteCoverage {
  rawDir: string
  previous: string | undefined
}

export async function startRemoteCoverage(): Promise<RemoteCoverage> {
  const rawDir = await mkdtemp(join(tmpdir(), 'toolreg-remote-coverage-'))
  const previous = process.env.NODE_V8_COVERAGE
  process.env.NODE_V8_COVERAGE = rawDir
  return { rawDir, previous }
}

/** Writes reports/coverage/ from what the servers recorded; false when no server recorded any. */
export async function finishRemoteCoverage(run: RemoteCoverage, include: string[]): Promise<boolean> {
  if (run.previous === undefined) delete process.env.NODE_V8_COVERAGE
  else process.env.NODE_V8_COVERAGE = run.previous
  try {
    if ((await readdir(run.rawDir)).length === 0) return false
    const { Report } = (await import('c8')) as unknown as { Report: new (options: object) => { run(): Promise<void> } }
    await rm(COVERAGE_DIR, { recursive: true, force: true })
    await new Report({
      include,
      exclude: ['**/node_modules/**', 'harness/**', 'suites/**'],
      excludeNodeModules: true,
      reporter: ['text-summary', 'json-summary', 'html', 'lcov'],
      reportsDirectory: COVERAGE_DIR,
      tempDirectory: run.rawDir,
    }).run()
    return true
  } finally {
    await rm(run.rawDir, { recursive: true, force: true })
  }
}
