// The triage of surviving Stryker mutants of reference-impl/: which survivors are equivalent
// (the contract cannot tell them from the reference) and why. Anything no rule matches is a gap.
// Rules name a file, a line range and optionally mutators or the mutated text; the first match wins.
// The reasons are the groups of reference-impl/MUTATION-TRIAGE.md.

const WHY = {
  message: 'message text: SPEC says denials and failures "carry a message", and suites assert codes, stage traces and shapes, never message text',
  redundant: 'redundant defence: a later or outer stage checks the same thing and yields the same outcome (seal ' +
    're-checks content, meta and contexts; run-call turns a stage that throws into an error outcome; the next check throws anyway)',
  unreachable: 'defensive branch unreachable through the adapter surface: the reference\'s own stages never throw ' +
    'there, or the state it guards cannot occur (checked just before with no await in between)',
  open: 'behaviour SPEC leaves open: the mutant differs from the reference only where the contract fixes ' +
    'nothing (which part, per file below: S-level post-execute after denials, codes SPEC does not assign, unspecified inputs)',
  hygiene: 'unhandled-rejection hygiene: swallowIfThenable only keeps a promise returned where none is expected ' +
    '(guard, observer, classifier, finalizer) from surfacing as an unhandled rejection; SPEC says nothing about it',
  same: 'the mutated code computes the same observable result (an own undefined field, a symbol description, ' +
    'a re-derived result from pure projections, a guard already implied by the next expression)',
  sticky: 'a value only an outer listener could read is replaced anyway: an inner malformed pre-execute ' +
    'decision is turned into a denial at the end regardless of what the outer listener returned (fail-closed is sticky)',
}

const rule = (file, lines, group, opts = {}) => ({ file, lines: Array.isArray(lines) ? lines : [lines, lines], group, ...opts })

const RULES = [
  // Text nobody may assert on: every StringLiteral that is a sentence or a template with spaces.
  { any: true, test: (m) => m.mutator === 'StringLiteral' && /^['"`].*\s/.test(m.text), group: 'message' },

  rule('pipeline/1-materialize.ts', [34, 39], 'open', {
    note: 'an unreadable input still ends as an error outcome; only its code (none vs UNKNOWN_TOOL) and the blank execution observers get differ'
  }),
  rule('pipeline/1-materialize.ts', [48, 48], 'same', { note: "'call' is only compared against 'unrouted' and 'ended'" }),
  rule('pipeline/1-materialize.ts', [55, 55], 'same', {
    mutators: ['ConditionalExpression'],
    text: /^parent !== undefined$/,
    note: 'inFlight never holds undefined',
  }),
  rule('pipeline/1-materialize.ts', [61, 61], 'redundant', { note: 'a non-object input fails the next field check (or throws into the catch below)' }),
  rule('pipeline/1-materialize.ts', [66, 66], 'redundant', { note: 'a name that is not a string resolves to no tool: UNKNOWN_TOOL, an error outcome as well' }),
  rule('pipeline/1-materialize.ts', [69, 70], 'unreachable', { note: 'reading callId, name and signal throws only for a throwing getter on the input' }),
  rule('pipeline/1-materialize.ts', [76, 76], 'same'),
  rule('pipeline/1-materialize.ts', [82, 83], 'same', {
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    note: 'an own agent/parent key holding undefined',
  }),
  rule('pipeline/1-materialize.ts', [101, 101], 'same', { note: 'bodyOpen is set before the run context exists' }),

  rule('pipeline/2-pre-execute.ts', [25, 25], 'sticky'),
  rule('pipeline/2-pre-execute.ts', [36, 36], 'redundant', { note: 'a primitive has no kind; null throws into the catch' }),
  rule('pipeline/2-pre-execute.ts', [40, 40], 'open', { note: 'a deny with a bad reason and a malformed decision are both denials' }),
  rule('pipeline/2-pre-execute.ts', [46, 46], 'unreachable'),

  rule('pipeline/3-approval.ts', [14, 14], 'open', { note: 'no service: a denial (post-execute may run) or a failure (it does not) — both deny' }),
  rule('pipeline/3-approval.ts', [17, 18], 'same', {
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    note: 'an own reason/agent key holding undefined',
  }),
  rule('pipeline/3-approval.ts', [18, 18], 'open'),
  rule('pipeline/3-approval.ts', [25, 25], 'open', {
    note: 'an abort while approval is pending must only keep the body from running (APR-2); no code is fixed'
  }),
  rule('pipeline/3-approval.ts', [27, 28], 'open', { mutators: ['BooleanLiteral'] }),
  rule('pipeline/3-approval.ts', [31, 33], 'message'),

  rule('pipeline/4-guards.ts', [20, 20], 'message', { mutators: ['StringLiteral'], note: 'typeof verdict === "" only swaps the denial text' }),
  rule('pipeline/4-guards.ts', [20, 20], 'open', {
    mutators: ['BooleanLiteral', 'ConditionalExpression', 'EqualityOperator'],
    note: 'the denial text, and post-execute after a guard denial (S)',
  }),

  rule('pipeline/5-execute.ts', [48, 50], 'redundant', { note: 'a missing or throwing overrides argument means "no replacement" either way' }),
  rule('pipeline/5-execute.ts', [52, 52], 'same', { text: /^replacement === signal$/, note: 'fusing a signal with itself aborts exactly when it does' }),
  rule('pipeline/5-execute.ts', [64, 64], 'open'),
  rule('pipeline/5-execute.ts', [100, 101], 'same', {
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    note: 'an own agent/parent key holding undefined',
  }),
  rule('pipeline/5-execute.ts', [73, 77], 'open', { mutators: ['BooleanLiteral'] }),
  rule('pipeline/5-execute.ts', [74, 74], 'open', { mutators: ['StringLiteral'], note: 'META-1 requires an error for a non-lossless context, not a code' }),
  rule('pipeline/5-execute.ts', [91, 97], 'open'),
  rule('pipeline/5-execute.ts', [107, 109], 'same', {
    note: 'WeakSet.has of a primitive is false; re-deriving a result next() produced gives an equal result'
  }),
  rule('pipeline/5-execute.ts', [111, 115], 'open', {
    note: "the content, text and post-execute routing of a wrapper's malformed or made-up error are not fixed; seal keeps only string codes"
  }),

  rule('pipeline/6-output.ts', [28, 28], 'redundant'),
  rule('pipeline/6-output.ts', [32, 32], 'redundant'),
  rule('pipeline/6-output.ts', [52, 52], 'redundant', { cols: [1, 37], note: 'null and primitives have no own code or throw into the catch' }),
  rule('pipeline/6-output.ts', [55, 55], 'redundant', { note: 'a missing descriptor throws into the catch; seal drops codes that are not strings' }),

  rule('pipeline/7-post-execute.ts', [25, 25], 'same', { note: 'no listeners: the waterfall falls back to accept' }),
  rule('pipeline/7-post-execute.ts', [38, 39], 'open', {
    mutators: ['ArrayDeclaration'],
    note: 'a stray context makes seal publish INVALID_TOOL_OUTPUT instead of an error without code: PST-3 requires an error, not a code',
  }),
  rule('pipeline/7-post-execute.ts', [49, 49], 'open', { mutators: ['ArrayDeclaration'], note: 'as above, for PST-2' }),
  rule('pipeline/7-post-execute.ts', [39, 39], 'same', {
    mutators: ['ConditionalExpression'],
    text: /^decision === MALFORMED$/,
    note: 'malformed is always set when the decision is MALFORMED',
  }),
  rule('pipeline/7-post-execute.ts', [58, 58], 'redundant', { note: 'a primitive decision has no kind; null throws into the catch' }),
  rule('pipeline/7-post-execute.ts', [77, 82], 'same', {
    mutators: ['StringLiteral', 'ObjectLiteral'],
    note: "after normalization only 'block', 'value' in and content are read",
  }),
  rule('pipeline/7-post-execute.ts', [83, 83], 'redundant', { note: 'a throw escapes into the waterfall, which treats it as a failing listener' }),

  rule('pipeline/8-finalize.ts', [27, 27], 'redundant', { mutators: ['ConditionalExpression'] }),
  rule('pipeline/8-finalize.ts', [27, 27], 'open', {
    mutators: ['StringLiteral'],
    note: 'META-1 requires an error for non-lossless finalizer output, not a code',
  }),

  rule('pipeline/9-publish.ts', [19, 23], 'redundant'),
  rule('pipeline/9-publish.ts', [31, 31], 'unreachable'),
  rule('pipeline/9-publish.ts', [34, 34], 'same', { note: 'an empty additionalContexts list carries no context' }),

  rule('pipeline/abort.ts', [6, 6], 'unreachable', { note: 'policyGates checks cancellation right before asking' }),
  rule('pipeline/abort.ts', [9, 9], 'same', {
    mutators: ['ObjectLiteral', 'BooleanLiteral'],
    note: 'the listener is removed when the request settles; resolving twice is a no-op',
  }),
  rule('pipeline/abort.ts', [12, 16], 'same', { mutators: ['StringLiteral'], note: 'a listener left registered only resolves an already settled promise' }),
  rule('pipeline/abort.ts', [24, 32], 'hygiene'),
  rule('pipeline/call-state.ts', [69, 69], 'redundant', {
    note: 'every gate that stops ends in an error; without the gate object the crash path ends in an error too'
  }),

  rule('pipeline/run-call.ts', [17, 18], 'unreachable'),
  rule('pipeline/run-call.ts', [21, 21], 'same', { note: 'unrouted results are errors, which never conclude' }),
  rule('pipeline/run-call.ts', [32, 32], 'same', { note: 'sealing a sealed result again gives an equal result' }),
  rule('pipeline/run-call.ts', [45, 46], 'unreachable'),
  rule('pipeline/run-call.ts', [56, 57], 'unreachable'),
  rule('pipeline/run-call.ts', [68, 68], 'same'),
  rule('pipeline/run-call.ts', [77, 77], 'unreachable', { note: 'no await between the last gate\'s cancellation check and this one' }),
  rule('pipeline/run-call.ts', [83, 86], 'open', {
    mutators: ['BooleanLiteral', 'ConditionalExpression'],
    note: 'after an abort during pre-execute only the body is constrained (PRE-6, CAN-2): later gates may run; ' +
      'post-execute after an abort before dispatch is not fixed',
  }),

  rule('pipeline/waterfall.ts', [24, 24], 'same'),
  rule('pipeline/waterfall.ts', [45, 45], 'same'),
  rule('pipeline/waterfall.ts', [48, 48], 'same', { mutators: ['EqualityOperator'], text: /^i < started\.length$/, replacement: 'i <= started.length' }),
  rule('content.ts', [12, 15], 'same', {
    mutators: ['ObjectLiteral'],
    note: 'callers read .ok first; `{}` reads as not ok, and the reason only feeds message text',
  }),
  rule('content.ts', [12, 12], 'redundant', {
    mutators: ['ConditionalExpression'],
    note: 'what is not lossless JSON snapshots to undefined, which fails the array check next',
  }),
  rule('content.ts', [22, 22], 'redundant', { mutators: ['ConditionalExpression'], note: 'as above, for contexts' }),
  rule('content.ts', [23, 23], 'redundant', {
    mutators: ['ConditionalExpression'],
    note: 'iterating a non-list throws, and every caller turns that into a refusal',
  }),
  rule('content.ts', [49, 49], 'unreachable', { note: 'textContent is exported but not used by the registry' }),
  rule('batch.ts', [21, 21], 'open', {
    note: 'the pool bound for a non-positive or fractional maxParallel is not specified, and MODE-3 bounds ' +
      'overlap from above only (it does not require parallelism)',
  }),
  rule('batch.ts', [22, 22], 'same', { note: 'a results array without a preset length fills to the same values' }),
  rule('mode.ts', [17, 21], 'redundant', {
    note: 'a non-object or nameless input resolves to no tool, and a classifier that is not a function throws into the catch: exclusive either way',
  }),
  rule('outcomes.ts', [5, 5], 'same', { mutators: ['ConditionalExpression'], note: 'an own code: undefined is dropped by seal' }),
  rule('outcomes.ts', [5, 5], 'message', {
    mutators: ['ObjectLiteral'],
    note: 'an error without its message: seal publishes String(undefined) as the message',
  }),
  rule('outcomes.ts', [10, 10], 'same', { mutators: ['ConditionalExpression'], note: 'an own meta: undefined is dropped by seal' }),
  rule('outcomes.ts', [18, 18], 'open', {
    mutators: ['StringLiteral'],
    note: 'IN-2 fixes no code for arguments that are not lossless JSON (INVALID_ARGS is DEF-5\'s, made by defineTool)',
  }),
  rule('timeout-policy.ts', [14, 14], 'unreachable', { note: 'every routed call is in registry.calls' }),
  rule('timeout-policy.ts', [17, 17], 'same', { mutators: ['StringLiteral'], note: 'the abort reason\'s name is not observed' }),
  rule('timeout-policy.ts', [22, 22], 'open', { note: 'a timer left armed fires after the call settled, aborting a signal nobody waits on' }),
rule('define-tool.ts', [11, 11], 'message', { note: 'the tool name only appears in defineTool\'s error text' }),
  rule('define-tool.ts', [12, 12], 'same', { mutators: ['OptionalChaining'], note: 'defineTool(null) throws either way' }),
  rule('define-tool.ts', [13, 13], 'redundant', { note: 'parameters that are not lossless JSON fail to compile and throw just after' }),
  rule('define-tool.ts', [17, 18], 'open', { note: 'a lossless but invalid parameters schema: SPEC does not require defineTool to reject it' }),
  rule('define-tool.ts', [32, 32], 'redundant', {
    replacement: 'true',
    note: 'wrapping a classifier that is not a function makes one that throws: exclusive either way',
  }),
  rule('define-tool.ts', [34, 34], 'redundant', { note: 'a classifier that is not a function is exclusive either way' }),
  rule('definition.ts', [32, 32], 'message'),
  rule('definition.ts', [31, 31], 'redundant', {
    note: 'a definition that is not an object has no string name (or throws reading it): registration throws either way',
  }),
  rule('definition.ts', [37, 62], 'message', {
    mutators: ['StringLiteral'],
    lineText: /fail\('/,
    note: 'the field names passed to fail() only build the error text',
  }),
  rule('definition.ts', [45, 45], 'redundant', {
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    note: 'reading schema from an output that is not an object throws, or yields no schema: registration throws either way',
  }),
  rule('definition.ts', [47, 47], 'redundant', { note: 'a schema that is not lossless JSON fails to compile just after' }),
  rule('definition.ts', [55, 55], 'redundant', { note: 'Number.isFinite rejects anything that is not a number' }),
  rule('definition.ts', [88, 90], 'message', { mutators: ['StringLiteral'] }),
  rule('json/lossless.ts', [24, 24], 'same', { mutators: ['ArrayDeclaration'], note: 'a string among the ancestors never equals an object' }),
  rule('json/lossless.ts', [24, 27], 'message', { mutators: ['StringLiteral'], note: 'paths and reasons only build message text' }),
  rule('json/lossless.ts', [26, 26], 'message', {
    mutators: ['ConditionalExpression'],
    note: 'either way the snapshot is refused; only its path and reason text differ',
  }),
  rule('json/lossless.ts', [26, 27], 'same', { mutators: ['ObjectLiteral'], note: 'callers read .ok first; `{}` reads as refused' }),
  rule('json/lossless.ts', [31, 33], 'unreachable', { note: 'isLosslessJson is exported but not used by the registry' }),
  rule('json/lossless.ts', [41, 102], 'message', {
    mutators: ['StringLiteral'],
    text: /^(`\$\{path\}[^`]*`|'(?:-0|cycle|hole|non-finite number|nesting too deep|array subclass|not a plain object|symbol key|non-enumerable key)')$/,
    note: 'paths and reasons only build message text',
  }),
  rule('json/lossless.ts', [53, 54], 'redundant', {
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    note: 'a cycle also ends at the depth limit, and too deep a structure overflows the stack into the catch: refused either way',
  }),
  rule('json/lossless.ts', [66, 67], 'redundant', { note: 'a hole is refused one line below; an array without preset length fills to the same values' }),
  rule('json/lossless.ts', [70, 70], 'redundant', { mutators: ['ConditionalExpression'], note: 'holes are refused by the key count above' }),
  rule('json/lossless.ts', [81, 81], 'redundant', { note: 'a symbol key throws when its path is built, into the catch: refused either way' }),
  rule('json/lossless.ts', [83, 83], 'unreachable', { note: 'an own key always has a descriptor (only a Proxy trap could say otherwise)' }),
  rule('json/lossless.ts', [97, 98], 'same', {
    mutators: ['LogicalOperator', 'ConditionalExpression'],
    note: 'an accessor descriptor has both get and set keys; a getter-less accessor reads as undefined, refused either way',
  }),
  rule('json/lossless.ts', [101, 102], 'message', { note: 'a throwing accessor is refused either way; only the reason text differs' }),
  rule('json/lossless.ts', [108, 108], 'redundant', { note: 'Object.isFrozen is true for every primitive' }),
  rule('json/lossless.ts', [112, 112], 'same', { note: 'freezing undefined (an accessor\'s value) is a no-op' }),
  rule('json/lossless.ts', [117, 124], 'message', { note: 'describeThrown only builds message text' }),
  rule('json/schema-validator.ts', [9, 9], 'same', { note: 'the CJS default export carries itself as .default' }),
  rule('json/schema-validator.ts', [10, 10], 'open', {
    note: 'ajv options: strictness and schema validation matter only for schemas outside the portable subset ' +
      'SPEC lets a registry reject; allErrors only changes error text'
  }),
  rule('json/schema-validator.ts', [18, 27], 'same', {
    mutators: ['ConditionalExpression', 'EqualityOperator', 'LogicalOperator', 'StringLiteral'],
    note: 'the compile cache and its bound only save work',
  }),
  rule('layers.ts', [27, 27], 'open', { note: 'what a stale disposer does after the name was registered again is not specified' }),
  rule('layers.ts', [33, 33], 'same', { note: 'no layer is keyed by undefined' }),
  rule('layers.ts', [55, 55], 'same', { note: 'a string entry has no key and never matches' }),
  rule('layers.ts', [58, 58], 'open', { note: 'registering a hook that is not a function is not specified' }),
  rule('layers.ts', [61, 62], 'open', { note: 'SPEC specifies the disposer of a tool registration (DEF-2), not of hooks' }),
  rule('layers.ts', [70, 70], 'same', { note: 'no entry is keyed by undefined' }),
  rule('code-mode/dispatch-log.ts', [27, 27], 'same', { note: 'an undefined decision falls back to the original content' }),
  rule('code-mode/dispatch-log.ts', [28, 28], 'redundant', { text: /^decision === undefined$/, note: 'the decision is undefined only when a listener threw' }),
rule('code-mode/run-code.ts', [36, 40], 'open', {
  note: 'run_code\'s own description, parameters and rendering are the transport\'s; SPEC only says it is the one model-facing tool in code mode'
}),
  rule('code-mode/run-code.ts', [46, 54], 'open', { note: 'codeProgram is a test helper building programs, not registry behaviour' }),
  rule('code-mode/run-code.ts', [57, 60], 'open', { note: 'how run_code refuses arguments without a string program is not specified' }),
  rule('code-mode/run-code.ts', [67, 68], 'same', { note: 'finish settles a promise, and a second settle is a no-op' }),
  rule('code-mode/run-code.ts', [70, 70], 'same', { note: 'a left-over abort listener only calls an idempotent finish' }),
  rule('code-mode/run-code.ts', [75, 78], 'open', { note: 'the time budget of a program is the transport\'s own policy' }),
  rule('code-mode/run-code.ts', [80, 80], 'same', { mutators: ['ObjectLiteral', 'BooleanLiteral'], note: 'finish is idempotent' }),
  rule('code-mode/run-code.ts', [81, 82], 'unreachable', {
    note: 'the worker source is fixed and reports every outcome with a message; it errors or exits early only if it is broken'
  }),
  rule('code-mode/run-code.ts', [88, 88], 'open', { note: 'the callIds of sub-calls are not specified' }),
  rule('code-mode/run-code.ts', [91, 91], 'same', { note: 'posting to a terminated worker is ignored' }),
  rule('code-mode/run-code.ts', [100, 100], 'same', { replacement: 'true', note: 'an own agent key holding undefined' }),
  rule('code-mode/run-code.ts', [104, 108], 'unreachable', { note: 'the dispatch-log waterfall never throws (it catches its listeners)' }),
rule('definition.ts', [30, 30], 'open', { note: 'SPEC has no clause on registering a tool named run_code' }),
  rule('definition.ts', [33, 33], 'open', { note: 'SPEC does not require rejecting an empty or non-string name at registration' }),
  rule('definition.ts', [37, 37], 'open', { mutators: ['ConditionalExpression'], note: 'SPEC has no clause on registering a tool named run_code' }),
  rule('definition.ts', [39, 39], 'open', {
    mutators: ['ConditionalExpression'],
    note: 'DEF-1 requires rejecting a missing output, not a non-string description',
  }),
  rule('definition.ts', [43, 43], 'open', {
    mutators: ['ConditionalExpression'],
    note: 'DEF-1 does not require rejecting a non-function execute at registration (calling it fails the call)',
  }),
  rule('definition.ts', [53, 53], 'open', {
    mutators: ['ConditionalExpression'],
    note: 'DEF-1 does not require rejecting a non-function finalizeContent at registration (calling it fails the call)',
  }),
  rule('registry.ts', [55, 55], 'open', { note: 'a registry in an unknown mode gets run_code; what a native registry does with run_code is not specified' }),
  rule('registry.ts', [74, 74], 'open', { note: 'run_code in a native registry: SPEC specifies the code and both modes only' }),
  rule('registry.ts', [83, 83], 'same', { note: 'the reserved-name list of run_code\'s own definition: run_code is not itself reserved' }),
rule('pipeline/6-output.ts', [52, 52], 'redundant', { text: /^thrown === null$/, note: 'getOwnPropertyDescriptor(null) throws into the catch' }),
  rule('pipeline/7-post-execute.ts', [38, 49], 'redundant', {
    mutators: ['ObjectLiteral'],
    text: /^\{ result: failure\(/,
    note: 'an outcome without result or contexts throws when run-call spreads its contexts, and run-call turns that into an error outcome too',
  }),
rule('content.ts', [36, 36], 'redundant', {
  mutators: ['ConditionalExpression'],
  text: /^typeof block !== 'object'$/,
  note: 'a primitive has no type property',
}),
  rule('content.ts', [44, 44], 'redundant', {
    note: 'a primitive message has no role; reading the role of null throws, and both routes (deferContext, a ' +
      'post-execute decision) turn that into an error or a refusal too'
  }),
rule('code-mode/run-code.ts', [100, 100], 'open', {
  note: 'SPEC does not say whether a sub-call carries the program\'s agent (CODE-2 asks for the parent and the full pipeline)',
}),
rule('batch.ts', [34, 41], 'open', {
  mutators: ['ConditionalExpression', 'StringLiteral'],
  replacement: undefined,
  text: /^(driver\.executionMode\(input\)\.kind !== 'parallel'|'parallel'|exclusive \|\| running\.size >= bound|exclusive)$/,
  note: 'treating every call as exclusive runs the batch one call at a time: MODE-3 bounds overlap from above and does not require parallelism',
}),
]

const matches = (r, m) => {
  if (r.any) return r.test(m)
  if (r.file !== m.file) return false
  if (m.line < r.lines[0] || m.line > r.lines[1]) return false
  if (r.mutators && !r.mutators.includes(m.mutator)) return false
  if (r.text && !r.text.test(m.text)) return false
  if (r.lineText && !r.lineText.test(m.lineText ?? '')) return false
  if (r.cols && (m.column < r.cols[0] || m.column > r.cols[1])) return false
  if (r.replacement !== undefined && String(m.replacement) !== r.replacement) return false
  return true
}

export function classify(m) {
  const r = RULES.find((x) => matches(x, m))
  if (!r) return { class: 'gap', group: 'not closed', reason: 'a gap: no property kills it yet (see the list of open gaps)' }
  return { class: 'equivalent', group: r.group, reason: WHY[r.group], ...(r.note ? { note: r.note } : {}) }
}
