/**
 * The MCP claims checker's data: a server's tools as listed, the hints they declare, what one
 * observation of the server holds, and what a call came back with. Verdicts are the claims
 * checker's own (ClaimVerdict); formatting them is the report's job.
 */
import type { JsonValue } from '../../contract/spec.js'

/** The hints of MCP's ToolAnnotations that claim something about the server's state. */
export interface ToolHints {
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
}

export interface McpTool {
  name: string
  inputSchema: JsonValue
  hints: ToolHints
}

/** One `tools/call` as a case holds it. */
export interface McpCall {
  tool: string
  arguments: JsonValue
}

/** What a call came back with: the tool's result (isError included), or the request's own failure. */
export type McpOutcome =
  | { result: JsonValue }
  | { requestError: { code?: number; message: string } }

/** Everything the checker can see of the server between calls. */
export interface Observation {
  /** The named state (a file or a directory) as JSON; absent when none is named. */
  state?: JsonValue
  /** resources/list, and each listed resource's contents (servers with the resources capability). */
  resources?: JsonValue
  /** What each stable read-only observer tool answers to its fixed arguments. */
  views: { [tool: string]: JsonValue }
}
