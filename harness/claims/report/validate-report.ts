/** The check-tool report's JSON Schema check (ajv), run before any report is written. */
import { readFileSync } from 'node:fs'
import AjvModule from 'ajv'
import { InvalidReport } from '../../report/validate-report.js'
import type { CheckToolReport } from './build-report.js'

const Ajv = AjvModule.default ?? AjvModule
export const CHECK_TOOL_REPORT_SCHEMA = JSON.parse(readFileSync(new URL('../../../reports/schema/check-tool-report.schema.json', import.meta.url), 'utf8')) as object
const validate = new Ajv({ strict: false, allErrors: false }).compile(CHECK_TOOL_REPORT_SCHEMA)

export function assertValidCheckToolReport(report: unknown): asserts report is CheckToolReport {
  if (!validate(report)) {
    const e = validate.errors?.[0]
    throw new InvalidReport(`check-tool report: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
}
