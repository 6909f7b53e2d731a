/** The seams a registry may have: the names an adapter declares and each clause needs (seams.ts). */
export const SEAMS = [
  /** Definitions are checked when registered: missing output, duplicates, non-JSON parameters. */
  'registration',
  /** `schemas()`: what the model is shown. */
  'projection',
  /** `executionMode`: per-call concurrency classification. */
  'classification',
  /**
   * Execution inputs checked and arguments snapshotted as lossless JSON, frozen, before any stage.
   * Without it, calls carry JSON arguments only and well-typed inputs (a model sends JSON text).
   */
  'input-snapshot',
  /** A fresh per-execution token every stage sees. */
  'execution-token',
  /** `onPreExecute`: a waterfall of listeners before the call, in order, each may delegate. */
  'pre-execute',
  /**
   * One decision before the call (allow / deny / ask), in the library's words: an approval
   * predicate or policy function. Implied by `pre-execute`. Without the waterfall, scenarios keep
   * at most one unscoped listener.
   */
  'pre-decision',
  /**
   * Per-tool decisions an app sets by tool name: a per-tool approval table, a tool's own approval
   * flag (`decideTool`). Without it, a scenario's per-tool decisions are installed as one final
   * pre-execute listener, where the adapter has a listener to spare.
   */
  'tool-decisions',
  /**
   * A per-tool approval requirement only: a call to the tool asks, or it does not (Agents JS
   * `needsApproval`), through `decideTool`. Implied by tool-decisions. A per-tool decision it
   * cannot hold (an exact deny) is dropped from the scenario.
   */
  'tool-asks',
  /** The approval service of `RegistryConfig.approval`, asked when a decision asks. */
  'approval',
  /** `guard`: deny-only checks after the decision. */
  'guards',
  /** `onExecute`: wrappers around the body. */
  'around-wrapper',
  /** Output checked against the tool's declared schema. */
  'output-validation',
  /** `output.render` / `presentationMeta` turn the value into content and meta. */
  'rendering',
  /** `presentCall` / `presentResult`: views for a UI. */
  'presentation',
  /** A thrown body becomes an error outcome the model can read. */
  'error-conversion',
  /** A thrown value's own string `code` kept as the outcome's error code. */
  'error-codes',
  /** `onPostExecute`: listeners that accept, replace or block a result. */
  'post-execute',
  /** `finalizeContent`: a per-tool last word on the content. */
  'finalize',
  /** `onResult`: observers of every published outcome. */
  'result-observers',
  /** An abort signal handed to the body, and outcomes that report the abort. */
  'cancellation',
  /** `timeoutMs` and the timeout policy. */
  'timeouts',
  /** `deferContext` / `concludeTurn` on the run context. */
  'turn-context',
  /** Nested calls that carry their parent's token. */
  'nested-calls',
] as const

export type Seam = (typeof SEAMS)[number]
