/** Writes every requested format of a check-mcp report, validated (reports/schema/check-mcp-report.schema.json) before any write. */
import { readFileSync } from 'node:fs'
import { documentValidator } from '../../json-schema.js'
import { writeAtomically } from '../../report/write-file.js'
import { InvalidReport } from '../../report/validate-report.js'
import type { CheckMcpReport } from './build-mcp-report.js'
import { toMcpJunit, toMcpMarkdown } from './format-mcp.js'
import type { CheckToolReportTargets } from './write-reports.js'

export const CHECK_MCP_REPORT_SCHEMA = JSON.parse(readFileSync(
  new URL('../../../reports/schema/check-mcp-report.schema.json', import.meta.url),
  'utf8',
)) as object
const validate = documentValidator(CHECK_MCP_REPORT_SCHEMA)

export function assertValidCheckMcpReport(report: unknown): asserts report is CheckMcpReport {
  if (!validate(report)) {
    const e = validate.errors?.[0]
    throw new InvalidReport(`check-mcp report: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
}

export async function writeCheckMcpReports(report: CheckMcpReport, targets: CheckToolReportTargets): Promise<string[]> {
  assertValidCheckMcpReport(report)
  const written: string[] = []
  if (targets.json) written.push(await writeAtomically(targets.json, `${JSON.stringify(report, null, 2)}\n`))
  if (targets.junit) written.push(await writeAtomically(targets.junit, toMcpJunit(report)))
  if (targets.markdown) written.push(await writeAtomically(targets.markdown, toMcpMarkdown(report)))
  return written
}
