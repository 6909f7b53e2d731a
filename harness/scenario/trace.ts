/** What running a scenario recorded: stage events in order, and each call's outcome. */
import type { ToolExecutionResult } from '../contract/spec.js'

export type Stage = 'pre' | 'approval' | 'guard' | 'wrapper' | 'body' | 'post' | 'finalize' | 'observer'

/**
 * A stage the watchdog can name a fault after: one of a call's, or `projection`, the registry
 * building its model-visible listing (`schemas()`, the SCH-* clauses), which no call traces.
 */
export type WatchedStage = Stage | 'projection'

/** What a hostile hook wrote to: the execution (or run context), a result, a request, a decision. */
export type AttackTarget = 'exec' | 'result' | 'request' | 'decision' | 'projection'

export interface StageEvent {
  ev: 'enter'
  stage: Stage
  /**
   * The call the stage belongs to, by the harness's own identity (`c<index>`, `c<index>/<tool>`
   * for a nested call): bound to the execution object and its token when first seen, never to a
   * field a hook could rewrite afterwards.
   */
  call: string
  /** Which hook of its kind (registration order). */
  index: number
  /** Small integer standing for the execution token (IN-3). */
  token: number
  /** The execution (and its arguments) were deep-frozen when the stage saw it (IN-1, RES-2). */
  execFrozen: boolean
  /** For post, finalize and observer: the result it saw was deep-frozen (PST-1, FIN-3, RES-2). */
  resultFrozen?: boolean
  /** For post, finalize and observer: whether the result it saw was an error. */
  isError?: boolean
  /** For the body: the name and arguments it ran with (IN-1); for finalize: the result it saw (JSON text). */
  detail?: string
  /** For finalize: the contexts on the result it was handed, as JSON text (FIN-3 vs CTX-1). */
  contexts?: string
}

export type TraceEvent =
  | StageEvent
  | { ev: 'leave'; stage: Stage; call: string; index: number }
  /** `asBodySettled`: the abort a call's `abortAsBodySettles` made, before anything awaiting the body resumed. */
  | { ev: 'abort'; call: string; asBodySettled?: true }
  /** `signalIsCaller`: the request's signal is the very signal the call's caller handed in (APR-1). */
  | { ev: 'approval-request'; call: string; keys: string[]; toolName: unknown; reason: unknown; signalIsCaller: boolean }
  | { ev: 'tamper'; call: string; changed: string[] }
  /** A hostile hook's writes on what it was handed; `changed` lists the paths that took effect. */
  | { ev: 'attack'; stage: Stage | 'approval'; call: string; target: AttackTarget; changed: string[] }
  | { ev: 'settled'; call: string }
  /** The registry called presentCall or presentResult (DEF-3: it never should during execution). */
  | { ev: 'present'; tool: string }

export interface CallRecord {
  callId: string
  /** The very object execute resolved with (identity matters: RES-1). */
  result?: ToolExecutionResult
  /** A JSON-safe copy for reports. */
  resultJson?: unknown
  rejected?: string
  /** The result's error code, read through the adapter's errorCode accessor. */
  code?: string
  /** What executionMode answered before the call ('parallel', 'exclusive', or 'threw …'). */
  mode?: string
  /** Objects observers received, in order. */
  observed: unknown[]
  /** The signal the body held aborted when the caller's did (EXE-2). */
  bodySignalAborted?: boolean
}

export interface Trace {
  events: TraceEvent[]
  calls: CallRecord[]
  /** Nested calls bodies dispatched (`dispatch` steps), named `<parent callId>/<step index>`. */
  nested?: CallRecord[]
  /**
   * Each call of a render or presentationMeta: the arguments it was handed, as JSON text (IN-1: a
   * snapshot), and `detached` where it was not called on its output (OUT-2), with the value it was
   * handed (a wrapper's made-up success is EXE-4's).
   */
  projected?: { tool: string; args: string; detached?: true; value?: string }[]
  /** Set when the case ran past its time budget: the last stage entered names where it hung. */
  hung?: { lastStage: string }
  /** An error thrown by the adapter itself (create, register…): a harness error, not a verdict. */
  adapterError?: string
  /**
   * The implementation refused to register a tool of the case (a schema it may reject): a harness
   * error that costs only this case, never a clause verdict.
   */
  refused?: string
}
