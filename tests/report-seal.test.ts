// Reports are checked again just before the command exits (issue 24): a report another process
// changed, removed or replaced after the run wrote it is named, so the run fails (exit 2).
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { stoppedReport } from '../harness/report/build-report.js'
import { rewrittenReports } from '../harness/report/report-seal.js'
import { writeReports } from '../harness/report/write-reports.js'

const dir = mkdtempSync(join(tmpdir(), 'toolreg-seal-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('reports as written pass the check; one rewritten, one removed are named', async () => {
  const report = stoppedReport({ adapter: 'a', error: 'stopped', seed: 1, runs: 1, durationMs: 0, version: '0' })
  const [json, markdown, badge] = ['r.json', 'r.md', 'badge.json'].map((name) => join(dir, name)) as [string, string, string]
  const written = await writeReports(report, { json, markdown, badge }, new Map())
  expect(rewrittenReports(written)).toEqual([])
  writeFileSync(json, '{"clauses":[]}')
  unlinkSync(badge)
  expect(rewrittenReports(written)).toEqual([json, badge])
})
