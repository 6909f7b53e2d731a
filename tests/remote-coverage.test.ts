// --coverage with --command: a server on Node records V8 coverage through the environment it
// inherits, and c8 turns it into the usual summary under reports/coverage/.
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { COVERAGE_DIR, readCoverageSummary } from '../harness/report/coverage.js'
import { finishRemoteCoverage, startRemoteCoverage } from '../harness/report/remote-coverage.js'

describe('coverage of a registry behind the protocol', () => {
  it('a server process spawned while it runs reports coverage of the implementation it loaded', async () => {
    const run = await startRemoteCoverage()
    // The server loads the reference and exits when its stdin closes.
    await execa('npx', ['tsx', 'fixtures/remote/reference-server.ts'], { input: '', reject: false })
    expect(await finishRemoteCoverage(run, ['reference-impl/**/*.ts'])).toBe(true)
    const summary = await readCoverageSummary(COVERAGE_DIR, ['reference-impl/**/*.ts'])
    expect(summary?.functions).toBeGreaterThan(0)
    expect(process.env.NODE_V8_COVERAGE).toBe(run.previous)
  })

  it('nothing recorded (a server not on Node) is reported as such, not as 0%', async () => {
    const run = await startRemoteCoverage()
    await execa('python3', ['-c', 'pass'], { reject: false })
    expect(await finishRemoteCoverage(run, ['reference-impl/**/*.ts'])).toBe(false)
  })
})
