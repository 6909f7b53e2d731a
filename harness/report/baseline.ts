/**
 * The known-failures baseline an implementer owns (YAML or JSON): listed clauses are expected to
 * fail and do not fail the run; a listed clause that now passes is stale and fails the run, so a
 * fixed bug cannot hide behind an old entry. Every entry needs a reason.
 */
import { readFile } from 'node:fs/promises'
import { documentValidator } from '../json-schema.js'
import { CLAUSE_IDS } from '../contract/clauses.js'
import type { CertifyReport } from './build-report.js'

export interface BaselineEntry {
  clause: string
  reason: string
}

export const BASELINE_SCHEMA = {
  type: 'object',
  required: ['known-failures'],
  additionalProperties: false,
  properties: {
    'known-failures': {
      type: 'array',
      items: {
        type: 'object',
        required: ['clause', 'reason'],
        additionalProperties: false,
        properties: { clause: { type: 'string' }, reason: { type: 'string', minLength: 1 } },
      },
    },
  },
}
const validate = documentValidator(BASELINE_SCHEMA)

export class InvalidBaseline extends Error {}

export async function readBaseline(file: string): Promise<BaselineEntry[]> {
  let parsed: unknown
  try {
    const text = await readFile(file, 'utf8')
    // yaml loads only for a YAML baseline: it is a twentieth of a run's start-up.
    parsed = file.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text)
  } catch (error) {
    throw new InvalidBaseline(`baseline ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!validate(parsed)) {
    const e = validate.errors?.[0]
    throw new InvalidBaseline(`baseline ${file}: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
  const entries = (parsed as { 'known-failures': BaselineEntry[] })['known-failures']
  const unknown = entries.filter((e) => !CLAUSE_IDS.includes(e.clause)).map((e) => e.clause)
  if (unknown.length > 0) throw new InvalidBaseline(`baseline ${file}: unknown clause ID(s) ${unknown.join(', ')}`)
  return entries
}

/** Marks baselined clauses in the report: expected failures, and stale entries that now pass. */
export function applyBaseline(report: CertifyReport, entries: readonly BaselineEntry[]): CertifyReport {
  const byClause = new Map(entries.map((e) => [e.clause, e.reason]))
  return {
    ...report,
    clauses: report.clauses.map((c) => {
      const reason = byClause.get(c.id)
      if (reason === undefined) return c
      if (c.status === 'failed') return { ...c, baseline: 'expected-failure', baselineReason: reason }
      if (c.status === 'passed') return { ...c, baseline: 'stale', baselineReason: reason }
      return c
    }),
  }
}
