/**
 * Every clause of SPEC.md: id, level, profile and its whole rule. Reports list them all, so no
 * clause can silently vanish. CLM clauses belong to the claims checker, not to certification.
 * The table is generated from harness/contract/SPEC.md (`npx tsx harness/contract/catalogue/generate.ts`) and
 * tests/clauses.test.ts checks it against that text.
 */
import type { Profile } from './adapter.js'

export type Level = 'R' | 'S' | 'claim'

export interface Clause {
  readonly id: string
  readonly level: Level
  readonly profile: Profile
  readonly rule: string
}

export const CLAUSES: readonly Clause[] = [
  {
    id: 'DEF-1', level: 'R', profile: 'core',
    rule:
      '`output` is mandatory; a definition without `output.schema` and `output.render` is rejected at ' +
      'registration (throws), and so is a `timeoutMs` that is present but not a positive finite number.',
  },
  {
    id: 'DEF-2', level: 'R', profile: 'core',
    rule:
      'Registering a second tool of the same name in the same layer throws; the first stays registered and ' +
      'callable. The returned disposer unregisters; after it, the name is `UNKNOWN_TOOL`.',
  },
  {
    id: 'DEF-3', level: 'S', profile: 'core',
    rule:
      '`presentCall` and `presentResult` are pure: the same arguments (and result) give deep-equal views ' +
      'every time, live or on replay; the registry never calls them during execution.',
  },
  { id: 'DEF-4', level: 'S', profile: 'core', rule: '`parameters` that are not lossless JSON are rejected at registration; `schemas()` itself never throws.' },
  {
    id: 'DEF-5', level: 'R', profile: 'define',
    rule:
      'Argument validation belongs to `defineTool`: a tool made with it ends a call whose arguments violate ' +
      '`parameters` as `INVALID_ARGS` before its body runs, and its classifier answers exclusive for such ' +
      'arguments. A raw definition owns its own validation.',
  },
  {
    id: 'SCH-1', level: 'R', profile: 'core',
    rule:
      '`schemas()` returns, per visible tool, an object whose own keys are exactly `name`, `description`, ' +
      '`parameters` — built from an explicit whitelist, so `execute`, `output`, `finalizeContent`, ' +
      '`timeoutMs`, `isConcurrencySafe`, `presentCall`, `presentResult` and any unknown extra field ' +
      '(present or added later) never appear.',
  },
  {
    id: 'SCH-2', level: 'R', profile: 'core',
    rule:
      '`parameters` in the projection is a detached lossless-JSON copy: mutating the returned object ' +
      'changes nothing later, and functions or symbols inside a definition never leak into it.',
  },
  { id: 'SCH-3', level: 'R', profile: 'core', rule: 'The projection is deterministic: same registrations, same order, deep-equal output.' },
  {
    id: 'MODE-1', level: 'R', profile: 'core',
    rule:
      '`executionMode(input)` is `parallel` only when the visible tool\'s `isConcurrencySafe(args)` returns ' +
      'exactly `true`.',
  },
  {
    id: 'MODE-2', level: 'R', profile: 'core',
    rule:
      'Everything else is `exclusive`: no classifier; a classifier that throws; a return of anything but ' +
      '`true` (`1`, `\'true\'`, `{}`, a Promise, a Boolean object, `undefined`…); a non-function classifier; ' +
      'invalid arguments to a `defineTool` tool (DEF-5); an unknown, unregistered or hidden tool. ' +
      '`executionMode` itself never throws. (For arguments that are not lossless JSON the mode is ' +
      'unconstrained: such a call ends at IN-2 before any body.)',
  },
  {
    id: 'MODE-3', level: 'R', profile: 'batch',
    rule:
      'A driver running a batch of calls never overlaps an exclusive call\'s body with any other body; ' +
      'consecutive parallel calls overlap up to the pool bound and never beyond it; results are returned in ' +
      'call order. When the batch\'s signal aborts, no further call starts, and each unstarted call gets an ' +
      '`ABORTED_BEFORE_DISPATCH` result without entering the pipeline.',
  },
  {
    id: 'IN-1', level: 'R', profile: 'core',
    rule:
      '`arguments` is snapshotted once as lossless JSON and deep-frozen; every stage and the body see that ' +
      'same frozen copy (never the caller\'s object). No stage can change what runs: an attempt to reassign ' +
      'the execution\'s `arguments`, `name`, `callId`, `agent` or `token` fails or is ignored, and the body ' +
      'that runs is the one named at entry with the arguments snapshotted at entry.',
  },
  {
    id: 'IN-2', level: 'R', profile: 'core',
    rule:
      'Arguments that are not lossless JSON (or whose accessors throw) end the call with an error outcome ' +
      'before any pre-execute listener, approval, guard, wrapper or body runs.',
  },
  {
    id: 'IN-3', level: 'R', profile: 'core',
    rule:
      'Each execution gets a fresh `token`; every stage of one call sees the same token; the caller cannot ' +
      'choose it.',
  },
  {
    id: 'IN-4', level: 'R', profile: 'core',
    rule:
      '`execute` never rejects for a well-typed input: every failure inside the pipeline (listener, guard, ' +
      'approval, wrapper, body, finalizer, observer) becomes an error outcome.',
  },
  {
    id: 'IN-5', level: 'S', profile: 'core',
    rule:
      'An ill-typed input (not an object; a `callId` or `name` that is not a string; no `AbortSignal`) ' +
      'resolves with an error outcome instead of rejecting or throwing.',
  },
  {
    id: 'PRE-1', level: 'R', profile: 'core',
    rule:
      'Listeners run in registration order; each returns a decision or awaits `next()`; when all delegate ' +
      '(or none exist) the decision is `allow`.',
  },
  { id: 'PRE-2', level: 'R', profile: 'core', rule: '`deny` ends the call with an error outcome; no guard, wrapper or body runs.' },
  {
    id: 'PRE-3', level: 'R', profile: 'core',
    rule:
      'Fail-closed on malformed decisions: anything that is not exactly one of the three shapes (unknown ' +
      '`kind`, a `deny` without a string reason, `undefined`, a non-object) is a denial, never an allow.',
  },
  { id: 'PRE-4', level: 'R', profile: 'core', rule: 'A listener that throws or rejects ends the call with an error outcome; the body never runs.' },
  { id: 'PRE-5', level: 'R', profile: 'core', rule: '`ask` with no approval capability configured is a denial.' },
  {
    id: 'PRE-6', level: 'R', profile: 'core',
    rule:
      'Async gates: the registry awaits a pending listener (never abandons its promise) and re-checks ' +
      'cancellation after it settles; if the caller aborted meanwhile, the body never runs.',
  },
  {
    id: 'PRE-7', level: 'R', profile: 'scopes',
    rule:
      'A listener registered for agent A receives only calls whose `agent` is A; global listeners receive ' +
      'all calls.',
  },
  {
    id: 'PRE-8', level: 'S', profile: 'core',
    rule:
      '`next()` is idempotent: a listener calling it twice gets the same decision and causes no later ' +
      'listener, approval request or guard to run twice or to be skipped (the same holds for ' +
      '`tools/execute` and `tools/post-execute`).',
  },
  {
    id: 'APR-1', level: 'R', profile: 'core',
    rule:
      'The registry itself shows nothing: an `ask` on a call that carries an agent is forwarded to the ' +
      'configured approval service exactly once, with the call\'s `callId`, the tool name, the ask\'s reason ' +
      'and the caller\'s signal — and never the tool\'s arguments. A call with no agent is forwarded the same ' +
      'way or denied without asking.',
  },
  {
    id: 'APR-2', level: 'R', profile: 'core',
    rule:
      'Only the exact outcome `\'allowed-once\'` lets the call proceed (to the guards). `\'rejected\'`, ' +
      '`\'cancelled\'`, `\'unavailable\'`, any other value, a throw, a rejection, or a caller abort while ' +
      'approval is pending all mean the body never runs.',
  },
  { id: 'APR-3', level: 'R', profile: 'core', rule: 'An approval that was granted never bypasses the guards.' },
  {
    id: 'GRD-1', level: 'R', profile: 'core',
    rule:
      'Guards run after the waterfall\'s final `allow` and before dispatch; any return other than ' +
      '`undefined` denies the call.',
  },
  {
    id: 'GRD-2', level: 'R', profile: 'core',
    rule:
      'Monotonic: adding a guard, or a listener that only denies, can only remove executions; no listener, ' +
      'order or later registration turns a guard denial into an execution.',
  },
  { id: 'GRD-3', level: 'R', profile: 'core', rule: 'A guard that throws denies (fail-closed).' },
  {
    id: 'EXE-1', level: 'R', profile: 'core',
    rule:
      'Wrappers nest in registration order (first registered is outermost); the innermost `next()` invokes ' +
      'the body; a wrapper that returns without `next()` means the body never runs. (A wrapper calling ' +
      '`next()` twice is PRE-8\'s case, not this clause\'s.)',
  },
  {
    id: 'EXE-2', level: 'R', profile: 'core',
    rule:
      'Only the signal may be replaced by a wrapper (through the adapter: `ADAPTER.md`), and a replacement ' +
      'cannot hide cancellation: whenever the caller\'s signal aborts, the signal the body holds aborts too.',
  },
  { id: 'EXE-3', level: 'R', profile: 'core', rule: 'A wrapper that throws ends the call with an error outcome.' },
  {
    id: 'EXE-4', level: 'R', profile: 'core',
    rule:
      'A success a wrapper makes up is validated against the tool\'s `output.schema` and rendered like a ' +
      'body\'s value.',
  },
  {
    id: 'OUT-1', level: 'R', profile: 'core',
    rule:
      'A body\'s return value is snapshotted as lossless JSON and validated against `output.schema`; a value ' +
      'that fails either is an `INVALID_TOOL_OUTPUT` error outcome, never a success.',
  },
  {
    id: 'OUT-2', level: 'R', profile: 'core',
    rule:
      '`content` is `output.render(args, value)` and `meta` is `output.presentationMeta(args, value)` (a ' +
      'nested call, one with `parent`, may omit `meta`): pure projections; rendering the same value twice ' +
      'gives deep-equal content (replay yields the same card). A projection that throws or returns ' +
      'non-lossless JSON is an `INVALID_TOOL_OUTPUT` error.',
  },
  { id: 'OUT-3', level: 'R', profile: 'core', rule: 'A body that throws becomes an error outcome whose content is model-readable text.' },
  { id: 'OUT-4', level: 'S', profile: 'core', rule: 'A thrown value\'s own string `code` is kept as the outcome\'s error code.' },
  {
    id: 'OUT-5', level: 'S', profile: 'core',
    rule:
      'Shapes are checked at the source: a projection, finalizer or post-execute decision whose content is ' +
      'not a `ContentBlock[]`, or a deferred context that is not a `UserMessage`, ends as an ' +
      '`INVALID_TOOL_OUTPUT` error. (OUT-2 and META-1 require only what is thrown or not lossless JSON to ' +
      'become an error.)',
  },
  {
    id: 'PST-1', level: 'R', profile: 'core',
    rule:
      'Listeners see the result frozen; they may accept, replace `content`, replace `value` (re-validated ' +
      'and re-rendered), or block (the outcome becomes an error with the feedback as content).',
  },
  {
    id: 'PST-2', level: 'R', profile: 'core',
    rule:
      'No resurrection: a post-execute listener cannot turn an error outcome (denial, abort, failure) into ' +
      'a success; replacing the value of a failed result is itself an error.',
  },
  {
    id: 'PST-3', level: 'R', profile: 'core',
    rule:
      'A decision that replaces both `value` and `content`, or is malformed, or a listener that throws, ' +
      'ends in an error outcome.',
  },
  {
    id: 'FIN-1', level: 'R', profile: 'core',
    rule:
      'A call resolves its tool\'s definition once, at entry: the body, `output` and `finalizeContent` that ' +
      'serve it all come from that one definition, and the callback is snapshotted then. Re-registering or ' +
      'disposing the tool mid-call never mixes definitions: the call finishes with its entry definition or, ' +
      'when the tool was disposed, may end as `UNKNOWN_TOOL`; either way the entry definition\'s callback ' +
      'runs once (FIN-2) and no other\'s.',
  },
  {
    id: 'FIN-2', level: 'R', profile: 'core',
    rule:
      'It is invoked exactly once for every outcome of a call whose tool was visible to that caller at ' +
      'entry (a Code Mode direct call is not: CODE-1) — success, tool error, denial, refused approval, ' +
      'guard denial, abort, invalid arguments, and pipeline failures that bypass post-execute (a throwing ' +
      'listener, guard, wrapper or post-execute).',
  },
  {
    id: 'FIN-3', level: 'R', profile: 'core',
    rule:
      'It receives the immutable execution and the frozen result; returning `undefined` keeps the content; ' +
      'returning blocks replaces only `content` — `isError`, `value`, `error`, `meta` and contexts stay ' +
      'registry-owned.',
  },
  {
    id: 'FIN-4', level: 'R', profile: 'core',
    rule:
      'It must be total. When it throws anyway, it is not called again, `execute` still resolves, and the ' +
      'outcome is an error (the unfinalized content is never published as a success).',
  },
  {
    id: 'RES-1', level: 'R', profile: 'core',
    rule:
      'Observers are notified exactly once per `execute`, after finalization, with the same object ' +
      '`execute` resolves with.',
  },
  {
    id: 'RES-2', level: 'R', profile: 'core',
    rule:
      'Before observers run, the result is deep-frozen and the execution is frozen (its `arguments` ' +
      'deep-frozen; the objects `signal`, `agent` and `parent` refer to are not the registry\'s to freeze); ' +
      'any later mutation attempt fails and changes nothing.',
  },
  {
    id: 'RES-3', level: 'R', profile: 'core',
    rule:
      'A success has `value` and no `error`; a failure has `error` and no `value`; `concludesTurn` appears ' +
      'only on a success.',
  },
  { id: 'RES-4', level: 'R', profile: 'core', rule: 'An observer that throws changes neither the outcome nor what other observers receive.' },
  {
    id: 'META-1', level: 'R', profile: 'core',
    rule:
      'Every published outcome is lossless JSON except `value`\'s already-validated JSON: a `meta`, ' +
      '`content`, `error` or context that is not lossless JSON (BigInt, cycle, function, undefined, NaN, ' +
      '-0, Map, class instance, throwing getter…) — whether it came from the tool, a wrapper, a ' +
      'post-execute listener or the finalizer — turns the outcome into an error, at the source, before ' +
      '`tools/result`.',
  },
  { id: 'META-2', level: 'R', profile: 'core', rule: '`JSON.parse(JSON.stringify(outcome))` deep-equals every published outcome.' },
  {
    id: 'CAN-1', level: 'R', profile: 'core',
    rule:
      'A signal already aborted at entry: outcome `ABORTED_BEFORE_DISPATCH`; no listener, approval, guard, ' +
      'wrapper or body runs (invalid arguments still win: IN-2).',
  },
  { id: 'CAN-2', level: 'R', profile: 'core', rule: 'An abort before the body starts (during a gate, approval or wrapper): the body never runs.' },
  {
    id: 'CAN-3', level: 'R', profile: 'core',
    rule:
      'The registry never abandons a started body: `execute` settles only after the body\'s promise settles, ' +
      'and then replaces a success with `ABORTED`.',
  },
  {
    id: 'CAN-4', level: 'R', profile: 'core',
    rule:
      'Cancellation replaces only successes: a denial, a tool\'s own error, a block or a `TOOL_TIMEOUT` ' +
      'stays as it is.',
  },
  {
    id: 'TMO-1', level: 'R', profile: 'core',
    rule:
      'The registry never kills same-process code and arms no timer of its own: without the timeout policy, ' +
      'a body running past its declared `timeoutMs` completes normally; with the policy, a tool that ' +
      'declares no `timeoutMs` has no deadline.',
  },
  {
    id: 'TMO-2', level: 'R', profile: 'timeout',
    rule:
      'With the timeout policy installed, a body still running at `timeoutMs` sees its signal abort; the ' +
      'outcome is `TOOL_TIMEOUT` once the body has settled (never before).',
  },
  {
    id: 'CTX-1', level: 'R', profile: 'core',
    rule:
      'Contexts passed to `deferContext` during the call appear, in order, in the outcome\'s ' +
      '`additionalContexts` — never before the result — on success and on a tool error alike. An outcome ' +
      'that a later stage turns into a pipeline error (a post-execute listener or finalizer that throws, a ' +
      'sibling context that is not lossless JSON) may drop them.',
  },
  {
    id: 'CTX-2', level: 'R', profile: 'core',
    rule:
      '`concludeTurn()` marks only a success: the outcome carries `concludesTurn: true` if and only if it ' +
      'is a success of a call whose body concluded.',
  },
  {
    id: 'CTX-3', level: 'R', profile: 'code',
    rule:
      'The code transport forwards a nested conclusion only from an authoritative nested success: a ' +
      '`run_code` outcome carries `concludesTurn` only when a sub-call\'s final outcome (after post-execute) ' +
      'was a success carrying it; a sub-call that was blocked, denied, aborted or failed cannot end the ' +
      'outer turn.',
  },
  {
    id: 'SCP-1', level: 'R', profile: 'scopes',
    rule:
      'A tool registered for agent A shadows a same-named global tool for A alone; others still see the ' +
      'global one.',
  },
  { id: 'SCP-2', level: 'R', profile: 'scopes', rule: 'A guard registered for A applies to A\'s calls only.' },
  {
    id: 'CODE-1', level: 'R', profile: 'code',
    rule:
      'In `code` mode, a call with no `parent` that names a native tool ends as `UNKNOWN_TOOL` before the ' +
      'policy pipeline: no pre-execute listener, approval, guard, wrapper, body, post-execute or finalizer ' +
      'observes it; `tools/result` is still notified once. It is indistinguishable (code, shape) from a ' +
      'call to a tool that does not exist. (Arguments that are not lossless JSON may end it at IN-2 first, ' +
      'provided a call to a missing tool with the same arguments ends the same way.)',
  },
  { id: 'CODE-2', level: 'R', profile: 'code', rule: 'A call carrying the `parent` token of an enclosing execution runs the full pipeline.' },
  {
    id: 'CODE-3', level: 'R', profile: 'code',
    rule:
      'In `code` mode the model-facing tool list holds only `run_code`; in `both` mode native calls execute ' +
      'normally.',
  },
  {
    id: 'CODE-4', level: 'R', profile: 'code',
    rule:
      'For a program run through the code transport (`run_code`) on a call that carries an agent, the ' +
      '`tools/code-dispatch-log` waterfall may rewrite only the copy of a sub-call\'s content that goes to ' +
      'the persisted event; the value the program receives and the model-visible outcome are unchanged, and ' +
      'a throwing listener leaves the original content logged.',
  },
  { id: 'CODE-5', level: 'S', profile: 'code', rule: 'A `parent` that is not the token of an execution still in flight is treated as absent.' },
  {
    id: 'CLM-1', level: 'claim', profile: 'core',
    rule:
      'A tool whose classifier returns `true` for some arguments does not mutate parent-owned state (the ' +
      'execution, its arguments, anything it was handed frozen).',
  },
  {
    id: 'CLM-2', level: 'claim', profile: 'core',
    rule:
      'Executions classified parallel tolerate concurrent dispatch: the results and the final shared state ' +
      'of any interleaving equal those of some sequential order, or the racing call fails closed (an error, ' +
      'no partial effect).',
  },
  {
    id: 'CLM-3', level: 'claim', profile: 'core',
    rule:
      'Declaring `timeoutMs` asserts that the body forwards `exec.signal` to cooperative work: it settles ' +
      'soon after its signal aborts and makes no further observable effect after settling.',
  },
  {
    id: 'CLM-4', level: 'claim', profile: 'core',
    rule:
      'Its classifier is synchronous, deterministic and side-effect free; its output values validate ' +
      'against `output.schema`; its projections are pure.',
  },
  {
    id: 'CLM-5', level: 'claim', profile: 'core',
    rule:
      'An MCP tool annotated `readOnlyHint: true` does not modify its environment: after any earlier calls, ' +
      'one call of it leaves the server\'s named state, its resources and the answers of its other read-only ' +
      'tools as they were.',
  },
  {
    id: 'CLM-6', level: 'claim', profile: 'core',
    rule:
      'MCP tools annotated `readOnlyHint: true` tolerate concurrent calls: the results and the final ' +
      'observed state of calls sent at once equal those of some sequential order of the same calls, or the ' +
      'failed calls failed closed (an error, no partial effect).',
  },
  {
    id: 'CLM-7', level: 'claim', profile: 'core',
    rule:
      'An MCP tool annotated `idempotentHint: true` and not read-only has no additional effect when called ' +
      'again with the same arguments: after a second identical call the server\'s observed state is what it ' +
      'was after the first.',
  },
  {
    id: 'CLM-8', level: 'claim', profile: 'core',
    rule:
      'An MCP tool annotated `destructiveHint: false` and not read-only performs only additive updates: ' +
      'everything the server\'s named state and resources held before a call is still there after it (values ' +
      'kept, text only appended).',
  },
]

export const CLAUSE_IDS: readonly string[] = CLAUSES.map((c) => c.id)
export const clauseById: ReadonlyMap<string, Clause> = new Map(CLAUSES.map((c) => [c.id, c]))
