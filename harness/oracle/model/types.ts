/**
 * What the routing model predicts for one call. Every expectation carries the clause it belongs
 * to — the outcome its deciding clause, the rest in `clauseOf` — and the judge files a deviation
 * under that tag, so the rule and its clause are fixed in one place.
 */
import type { CallSpec, ToolSpec } from '../../scenario/types.js'

export type Mode = 'parallel' | 'exclusive' | 'unconstrained'

export interface Expected {
  /** The tool this call routes to, if visible; undefined means UNKNOWN_TOOL (CODE-1 / IN-4). */
  tool: ToolSpec | undefined
  /** Hooks (by index among the scenario's list) that apply to this caller. */
  pre: number[]
  guards: number[]
  wrappers: number[]
  post: number[]
  observers: number[]
  /** How many of each must be entered, exactly once each, in order. */
  preEntered: number
  approvalRequested: boolean
  /** The reason of the deciding `ask`, which the approval request must carry (APR-1). */
  askReason?: string
  guardsEntered: number
  wrappersEntered: number
  bodyRuns: boolean
  /** Whether post-execute must run (true), must not (false), or may (undefined: S-level). */
  postRuns: boolean | undefined
  postEntered: number
  finalizeRuns: boolean
  /** The clause of the error a gate or post-execute decided, whatever the timing: the finalizer must be handed it (FIN-3). */
  finalizerHandedError?: string
  outcome: PredictedOutcome
  /** Parallel only when MODE-1 says so; unconstrained for arguments that are not lossless JSON (MODE-2). */
  mode: Mode
  /** An `ask` on a call with no agent: forwarding it and denying it without asking both conform (APR-1). */
  agentlessAsk?: boolean
  /** A nested call (one with `parent`, dispatched by a body): it may omit `meta` (OUT-2). */
  nested?: boolean
  /** The arguments are invalid for a `defineTool` tool: the hooks may see the call or not (DEF-5). */
  defineRefuses?: boolean
  /** The call reaches the body, or ends at entry, and only DEF-5's validation keeps the body from running. */
  bodyRefused?: boolean
  /** executionMode must answer exclusive because the classified tool is a `defineTool` one refusing the arguments (DEF-5). */
  modeRefused?: boolean
  /** A native call to no visible tool with lossless arguments: the policy may see it before it ends (IN-4). */
  unknownMayReachPolicy?: boolean
  /** Predicted on that branch: the gates ran, and the call ended at one of them or as UNKNOWN_TOOL. */
  unknownAfterPolicy?: boolean
  /** The call ends at entry, before any policy (IN-2, CAN-1), whatever its finalizer makes of it. */
  endedAtEntry?: 'IN-2' | 'CAN-1'
  /** Hooks that disposed of themselves in an earlier call: registered no more, so none of them runs. */
  gone?: GoneHooks
  /** The clause of each expectation above (tagged by model/clause-tags.ts). */
  clauseOf: ExpectationClauses
}

/** The clause each expectation of `Expected` belongs to: the one a deviation from it breaks. */
export interface ExpectationClauses {
  /** executionMode's answer: MODE-1 (parallel), DEF-5 (a defineTool's invalid arguments), MODE-2. */
  mode: string
  /** How often finalizeContent runs: FIN-2, or CODE-1 for a code-mode call that reached no tool. */
  finalize: string
  /** A policy stage run by a call that ends at entry: the entry clause (or the outcome's). */
  entry: string
  /** The pre-execute listeners entered, in order (PRE-1). */
  pre: string
  /** How often approval is requested: APR-1 when it must be, else the clause that ends the call first. */
  approval: string
  /** What the approval request carries (APR-1). */
  approvalRequest: string
  /** The guards entered: the clause deciding them (GRD-1; APR-3 after a granted approval; APR-2). */
  guards: string
  /** Guards entered before any guard should: the clause that stopped the call first. */
  guardsTooEarly: string
  /** The clause of the guard that decided, when one did: GRD-1 for its denial, GRD-3 for its throw. */
  guardDecider?: string
  /** No guard ran at all after a granted approval: the approval bypassed them (APR-3). */
  guardsBypassed: string
  /** The wrappers entered, in order (EXE-1). */
  wrappers: string
  /** How often the body runs: EXE-1 when it must, DEF-5 when only validation stops it, else the clause that stops the call first. */
  body: string
  /** The post-execute hooks entered, in order (PST-1). */
  post: string
  /** Post-execute run for an outcome that bypasses it: the outcome's clause. */
  postBypassed: string
  /** Which observers are notified, in order (RES-1; RES-4 when an earlier one threw). */
  observers: string
  observersAfterThrow: string
  /** An aborted call published as a success the model rules out: CAN-3 once the body runs, else CAN-2. */
  abortedSuccess: string
  /** The parts of the outcome. */
  outcome: OutcomeClauses
}

/** Hooks, by stage and index, that disposed of themselves when a call before this one entered them. */
export interface GoneHooks {
  pre: number[]
  guard: number[]
  wrapper: number[]
  post: number[]
}

export interface PredictOptions {
  /** Hooks registered no more when this call starts (calls run one after another). */
  gone?: GoneHooks
  /** Take APR-1's other branch: an agent-less `ask` is denied without asking. */
  denyAgentlessAsk?: boolean
  /** Take IN-4's other branch: a call to no visible tool goes through the policy gates before it ends. */
  unknownAfterPolicy?: boolean
  /** Take DEF-5's other branch: a `defineTool` tool's invalid arguments end the call at entry, before any hook. */
  defineAtEntry?: boolean
  /** Predict this nested call (a body's `dispatch` step, carrying its token as parent) instead. */
  nested?: CallSpec
  /** Take OUT-2's other branch for a nested call: meta omitted, presentationMeta never called. */
  omitMeta?: boolean
  /** OUT-5's other branch for these sources: lossless content of the wrong shape published as it is. */
  lax?: ReadonlySet<ShapeSource>
  /** The place of this call's approval request among the case's requests: a service with later answers answers by it. */
  approvalRequest?: number
}

/**
 * Where a projection, finalizer, post-execute decision or deferred context gives lossless JSON of
 * the wrong shape, OUT-5 (S) wants INVALID_TOOL_OUTPUT; an implementation may instead publish it as
 * it is. `lax` names the sources predicted on that second branch, so R clauses hold on either.
 */
export type ShapeSource = 'render' | 'finalize' | 'post-content' | 'contexts'

export interface PredictedOutcome {
  isError: boolean
  code?: string
  /** The clause that decided the outcome. */
  clause: string
  /**
   * No visible tool, arguments not lossless JSON: the call may end at IN-2 first, with another code,
   * provided a call to a missing tool with the same arguments ends the same way (CODE-1).
   */
  in2First?: boolean
  /** The clause that demands `code`, when not `clause` (a thrown code is OUT-4's, an S clause). */
  codeClause?: string
  value?: unknown
  contexts?: unknown[]
  /** Other context lists that conform (CTX-1: a pipeline error may drop the deferred contexts). */
  contextsAlt?: unknown[][]
  concludes?: boolean
  /** The content the finalizer or post-execute put in place, when predictable. */
  content?: unknown
  /** The body threw with nothing to say (OUT-3): a text block is its text, even an empty one, as the tool said. */
  saidNothing?: true
  /** The clause of the stage that put `content` in place: PST-1 (post-execute), FIN-3 (the finalizer, the default). */
  contentClause?: string
  /** The clause that demands `meta`: OUT-2 (a body's value, the default), EXE-4 (a made-up one), PST-1 (a replaced one). */
  metaClause?: string
  /** PST-2 (a value replacement on a failure): the clause that decided the failure post-execute was handed. */
  upstream?: string
  /** What presentationMeta gives for a success's value (OUT-2); absent when it has no meta. */
  meta?: { present: false } | { present: true; value: unknown }
}

/** The clause of each part of a predicted outcome; whether it is an error, its value and code are `clause`'s (and `codeClause`'s). */
export interface OutcomeClauses {
  /** The published `meta`: the clause of the stage that made the success's value (OUT-2, EXE-4, PST-1). */
  meta: string
  /** The published additionalContexts: CTX-1, or FIN-3 when a finalizer's throw decided. */
  contexts: string
  /** Contexts the finalizer was handed intact and that were lost after it: the finalizer stage's (FIN-3). */
  contextsAfterFinalizer: string
  /** The published content: the clause of the stage that put it in place (FIN-3, PST-1). */
  content: string
  /** Whether a success concludes the turn, and that an error never does (CTX-2). */
  concludes: string
  /** A thrown body leaves model-readable text in content (OUT-3). */
  thrownText: string
}
