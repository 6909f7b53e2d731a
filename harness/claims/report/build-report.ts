/** The check-tool report as data: every CLM clause with its verdict, and the exit code it implies. */
import { clauseById } from '../../contract/clauses.js'
import type { ClaimsResult, ToolDeclarations } from '../check-claims.js'
import type { ClaimStatus, ClaimVerdict } from '../types.js'

export interface CheckToolReport {
  schemaVersion: 1
  kind: 'check-tool'
  toolreg: string
  tool: { name: string; module: string; export?: string; declares: ToolDeclarations }
  seed: number
  runs: number
  durationMs: number
  node: string
  /** Set when the run replayed one saved case file. */
  replay?: string
  claims: (ClaimVerdict & { rule: string })[]
  summary: { refuted: number; notRefuted: number; unknown: number; notApplicable: number }
  notes: string[]
  /** The tool module failing mid-run: any makes the run exit 2. */
  errors: string[]
}

export interface ReportInput {
  result: ClaimsResult
  module: string
  exportName?: string
  seed: number
  runs: number
  durationMs: number
  version: string
  replay?: string
}

export function buildReport(input: ReportInput): CheckToolReport {
  const { result } = input
  const claims = result.verdicts.map((v) => ({ ...v, rule: clauseById.get(v.id)?.rule ?? '' }))
  const count = (status: ClaimStatus) => claims.filter((c) => c.status === status).length
  return {
    schemaVersion: 1,
    kind: 'check-tool',
    toolreg: input.version,
    tool: { name: result.tool.name, module: input.module, ...(input.exportName ? { export: input.exportName } : {}), declares: result.tool.declares },
    seed: input.seed,
    runs: input.runs,
    durationMs: input.durationMs,
    node: process.version,
    ...(input.replay ? { replay: input.replay } : {}),
    claims,
    summary: { refuted: count('refuted'), notRefuted: count('not-refuted'), unknown: count('unknown'), notApplicable: count('not-applicable') },
    notes: result.notes,
    errors: result.errors,
  }
}

/** 2 when the module failed, 1 when a claim is refuted, 0 otherwise (unknown included: it is reported, not failed). */
export function exitCode(report: CheckToolReport): 0 | 1 | 2 {
  if (report.errors.length > 0) return 2
  return report.summary.refuted > 0 ? 1 : 0
}
