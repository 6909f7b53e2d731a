/** Writes every requested format from the one in-memory report, validated before any write. */
import { writeAtomically } from '../../report/write-file.js'
import type { CheckToolReport } from './build-report.js'
import { toJunit } from './junit.js'
import { toMarkdown } from './markdown.js'
import { assertValidCheckToolReport } from './validate-report.js'

export interface CheckToolReportTargets {
  json?: string
  junit?: string
  markdown?: string
}

export async function writeCheckToolReports(report: CheckToolReport, targets: CheckToolReportTargets): Promise<string[]> {
  assertValidCheckToolReport(report)
  const written: string[] = []
  if (targets.json) written.push(await writeAtomically(targets.json, `${JSON.stringify(report, null, 2)}\n`))
  if (targets.junit) written.push(await writeAtomically(targets.junit, toJunit(report)))
  if (targets.markdown) written.push(await writeAtomically(targets.markdown, toMarkdown(report)))
  return written
}
