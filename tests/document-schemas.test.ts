// The schemas of the files toolreg writes and reads back are valid JSON Schemas: the document
// validators compile them without checking them against the meta-schema (harness/json-schema.ts),
// so this test does, once.
import AjvModule from 'ajv'
import { describe, expect, it } from 'vitest'
import { CASE_FILE_SCHEMA } from '../harness/claims/case-file.js'
import { CHECK_MCP_REPORT_SCHEMA } from '../harness/claims/report/write-mcp-reports.js'
import { CHECK_TOOL_REPORT_SCHEMA } from '../harness/claims/report/validate-report.js'
import { BASELINE_SCHEMA } from '../harness/report/baseline.js'
import { REPORT_SCHEMA } from '../harness/report/validate-report.js'
import { SCENARIO_SCHEMA } from '../harness/scenario/scenario-schema.js'
import { ENVELOPE_SCHEMA } from '../harness/store/counterexample.js'

const Ajv = AjvModule.default ?? AjvModule

const SCHEMAS: Record<string, object> = {
  'certify report': REPORT_SCHEMA,
  'check-tool report': CHECK_TOOL_REPORT_SCHEMA,
  'check-mcp report': CHECK_MCP_REPORT_SCHEMA,
  'known-failures baseline': BASELINE_SCHEMA,
  'claim case file': CASE_FILE_SCHEMA,
  'counterexample envelope': ENVELOPE_SCHEMA,
  scenario: SCENARIO_SCHEMA,
}

describe('document schemas', () => {
  it.each(Object.entries(SCHEMAS))('the %s schema is valid against its meta-schema', (_name, schema) => {
    const ajv = new Ajv({ strict: false })
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true)
  })

  it('a schema that is not one is refused (the check can fail)', () => {
    const ajv = new Ajv({ strict: false })
    expect(ajv.validateSchema({ type: 'no-such-type' })).toBe(false)
  })
})
