/** The check-mcp report as data: every tool with the claims its annotations make, and the exit code it implies. */
import { clauseById } from '../../contract/clauses.js'
import type { McpClaimsResult } from '../mcp/check-server.js'
import type { ToolHints } from '../mcp/types.js'
import type { ClaimStatus, ClaimVerdict } from '../types.js'

export interface CheckMcpReport {
  schemaVersion: 1
  kind: 'check-mcp'
  toolreg: string
  server: { command: string[]; state?: string; reuseServer: boolean; started: number }
  seed: number
  runs: number
  durationMs: number
  node: string
  /** Set when the run replayed one saved case file. */
  replay?: string
  tools: { name: string; hints: ToolHints; claims: (ClaimVerdict & { rule: string })[] }[]
  summary: { refuted: number; notRefuted: number; unknown: number; notApplicable: number }
  notes: string[]
  /** The server failing mid-run: any makes the run exit 2. */
  errors: string[]
}

export interface McpReportInput {
  result: McpClaimsResult
  command: string[]
  state?: string
  reuseServer: boolean
  seed: number
  runs: number
  durationMs: number
  version: string
  replay?: string
}

export function buildMcpReport(input: McpReportInput): CheckMcpReport {
  const tools = input.result.tools.map((t) => ({
    name: t.name,
    hints: t.hints,
    claims: t.verdicts.map((v) => ({ ...v, rule: clauseById.get(v.id)?.rule ?? '' })),
  }))
  const all = tools.flatMap((t) => t.claims)
  const count = (status: ClaimStatus) => all.filter((c) => c.status === status).length
  return {
    schemaVersion: 1,
    kind: 'check-mcp',
    toolreg: input.version,
    server: { command: input.command, ...(input.state ? { state: input.state } : {}), reuseServer: input.reuseServer, started: input.result.serversStarted },
    seed: input.seed,
    runs: input.runs,
    durationMs: input.durationMs,
    node: process.version,
    ...(input.replay ? { replay: input.replay } : {}),
    tools,
    summary: { refuted: count('refuted'), notRefuted: count('not-refuted'), unknown: count('unknown'), notApplicable: count('not-applicable') },
    notes: input.result.notes,
    errors: input.result.errors,
  }
}

/** 2 when the server failed, 1 when a claim is refuted, 0 otherwise (unknown included: it is reported, not failed). */
export function mcpExitCode(report: CheckMcpReport): 0 | 1 | 2 {
  if (report.errors.length > 0) return 2
  return report.summary.refuted > 0 ? 1 : 0
}
