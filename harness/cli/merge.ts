/** `toolreg merge`: shard reports in, one report (same schema, every format) out. */
import { readFile } from 'node:fs/promises'
import { exitCode } from '../report/build-report.js'
import { formatMatrix } from '../report/format-matrix.js'
import { gateLine } from '../report/gate.js'
import { mergeReports } from '../report/merge.js'
import { assertValidReport } from '../report/validate-report.js'
import { writeReports, type ReportTargets } from '../report/write-reports.js'
import { UsageError } from './usage.js'

export async function merge(files: readonly string[], targets: ReportTargets, strict: boolean): Promise<number> {
  if (files.length === 0) throw new UsageError('merge needs shard reports: toolreg merge <report.json>... --json merged.json')
  const reports = []
  for (const file of files) {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'))
    } catch (error) {
      throw new UsageError(`${file}: not a readable JSON report (${error instanceof Error ? error.message : String(error)})`)
    }
    assertValidReport(parsed, file)
    reports.push(parsed)
  }
  const merged = mergeReports(reports, { files })
  console.log(formatMatrix(merged))
  await writeReports(merged, targets)
  console.log(`\n${gateLine(merged, strict)}`)
  return exitCode(merged, strict)
}
