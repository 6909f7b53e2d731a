/**
 * The claims checker's data: what a tool module may export, what a trial hands its setup(), and
 * the verdicts. Verdicts are values; formatting them is the report's job.
 */
import type { JsonValue, ToolDefinition } from '../contract/spec.js'

/** What setup() receives: the checker's handle on the environment's await points. */
export interface ClaimHarness {
  /**
   * An await point of the environment (a store's get or set, a lock, a queue). Under CLM-2 its
   * release is ordered by fc.scheduler, so two calls interleave at exactly these points; in every
   * other trial it resolves at once (CLM-3: after one macrotask). `label` names it in the printed
   * interleaving.
   */
  pause(label?: string): Promise<void>
}

/** A tool module's lifecycle: how to build a fresh environment, its definition, and observe it. */
export interface ToolLifecycle {
  /** Where it came from, for messages: `module` or `module#export`. */
  readonly source: string
  readonly definitionFor: (env: unknown) => ToolDefinition
  readonly setup: (harness: ClaimHarness) => Promise<unknown>
  readonly hasSetup: boolean
  /** undefined when the module has no observe(): shared state is then not compared. */
  readonly observe: ((env: unknown) => Promise<JsonValue>) | undefined
  readonly teardown: (env: unknown) => Promise<void>
}

/** A tool module as loaded and tried once. */
export interface LoadedTool extends ToolLifecycle {
  /**
   * The definition built on that first setup(): for its static fields (name, parameters,
   * output.schema, timeoutMs, which methods exist). Trials build their own on their own setup().
   */
  readonly definition: ToolDefinition
}

export const CLAIM_IDS = ['CLM-1', 'CLM-2', 'CLM-3', 'CLM-4'] as const
export type ClaimId = (typeof CLAIM_IDS)[number]
/** The claims of MCP tool annotations, checked by check-mcp (harness/claims/mcp/). */
export const MCP_CLAIM_IDS = ['CLM-5', 'CLM-6', 'CLM-7', 'CLM-8'] as const
export type McpClaimId = (typeof MCP_CLAIM_IDS)[number]
export type AnyClaimId = ClaimId | McpClaimId

export type ClaimStatus = 'refuted' | 'not-refuted' | 'unknown' | 'not-applicable'

/** One thing a trial saw that the claim forbids. */
export interface Violation {
  /** Which part of the claim: 'classifier', 'output', 'render', 'arguments', 'interleaving', 'settle', … */
  check: string
  detail: string
  /** The property path written, for write attempts (CLM-1, CLM-4). */
  path?: string
}

export interface Counterexample {
  seed: number
  /** fast-check's path to the shrunk case: with the seed, it replays exactly that case. */
  path: string
  /** The shrunk case as JSON (arguments, calls, abort point). */
  case: JsonValue
  violations: Violation[]
  /** CLM-2: the order in which the scheduler released the calls' starts and pause() points. */
  interleaving?: string[]
  /** CLM-2: the same order as scheduler task ids, which a replay follows exactly. */
  schedule?: number[]
  /** The saved case file that `replay` re-runs. */
  file?: string
}

export interface ClaimVerdict {
  id: AnyClaimId
  status: ClaimStatus
  /** Trials run (those skipped by a precondition excluded). */
  numRuns: number
  reason?: string
  counterexample?: Counterexample
}
