/** The check-tool report's JSON Schema check (ajv), run before any report is written. */
import { readFileSync } from 'node:fs'
import { documentValidator } from '../../json-schema.js'
import { InvalidReport } from '../../report/validate-report.js'
import type { CheckToolReport } from './build-report.js'

export const CHECK_TOOL_REPORT_SCHEMA = JSON.parse(readFileSync(
  new URL('../../../reports/schema/check-tool-report.schema.json', import.meta.url),
  'utf8',
)) as object
const validate = documentValidator(CHECK_TOOL_REPORT_SCHEMA)

export function assertValidCheckToolReport(report: unknown): asserts report is CheckToolReport {
  if (!validate(report)) {
    const e = validate.errors?.[0]
    throw new InvalidReport(`check-tool report: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
}
