/** The report's JSON Schema check (ajv), run before any report is written or after one is read. */
import { readFileSync } from 'node:fs'
import { documentValidator } from '../json-schema.js'
import type { CertifyReport } from './build-report.js'

export const REPORT_SCHEMA = JSON.parse(readFileSync(new URL('../../reports/schema/certify-report.schema.json', import.meta.url), 'utf8')) as object
const validate = documentValidator(REPORT_SCHEMA)

export class InvalidReport extends Error {}

export function assertValidReport(report: unknown, where = 'report'): asserts report is CertifyReport {
  if (!validate(report)) {
    const e = validate.errors?.[0]
    throw new InvalidReport(`${where}: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
}
