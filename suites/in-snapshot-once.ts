/**
 * IN-1 with arguments whose getter answers differently on each read: "`arguments` is snapshotted
 * once as lossless JSON and deep-frozen; every stage and the body see that same frozen copy (never
 * the caller's object)". What a registry reads twice — validated on the live object, then copied
 * again; or handed to a stage live — differs between its reads, so the stages disagree or run what
 * was not validated. SPEC fixes the copy, not the reads: a registry may walk the arguments more
 * than once (a check, then the copy) as long as everything it judges and runs is that one copy, and
 * a call one of whose reads is not lossless JSON may end at IN-2; neither is failed here (the
 * variant arguments-checked-then-copied takes both). What is failed: stages holding a read JSON
 * cannot hold when the first read was lossless (a later read, copied with no check).
 */
import fc from 'fast-check'
import {
  buildValue,
  deepEqualJson,
  isDeepFrozen,
  isLosslessDesc,
  jsonOf,
  safeJson,
  valueWords,
  type ValueDesc,
} from '../harness/property/vocabulary.js'
import { input, type CustomContext } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import type { ToolExecution } from '../harness/contract/spec.js'

export interface ShiftingCase {
  /** A plain object descriptor whose `path` is a `shifting-getter`. */
  args: { [k: string]: ValueDesc }
  /** Made with the adapter's `defineTool` (when it has one), `path` a string in its `parameters`. */
  define: boolean
}

const PARAMETERS = { type: 'object', properties: { path: { type: 'string' } } }

const matching = fc.string({ maxLength: 4 }) as fc.Arbitrary<ValueDesc>
const violating = fc.oneof(
  { weight: 3, arbitrary: fc.integer() as fc.Arbitrary<ValueDesc> },
  { weight: 1, arbitrary: fc.constantFrom<ValueDesc>(null, [], { $: 'undefined' }, { $: 'bigint' }, { $: 'function' }) },
)
/** Reads a copy can hold but JSON cannot: what a registry that copies a later read unchecked runs with. */
const copyableNotJson = fc.constantFrom<ValueDesc>({ $: 'undefined' }, { $: 'bigint' })

/** Mostly a first read that `parameters` accepts and later reads that it does not. */
export const shiftingCase: fc.Arbitrary<ShiftingCase> = fc.record({
  first: fc.oneof({ weight: 4, arbitrary: matching }, { weight: 1, arbitrary: violating }),
  later: fc.array(
    fc.oneof({ weight: 4, arbitrary: violating }, { weight: 1, arbitrary: matching }, { weight: 1, arbitrary: copyableNotJson }),
    { minLength: 1, maxLength: 3 },
  ),
  n: fc.option(fc.integer(), { nil: undefined }),
  define: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
}).map(({ first, later, n, define }) => ({
  args: { path: { $: 'shifting-getter', reads: [first, ...later] }, ...(n === undefined ? {} : { n }) },
  define,
}))

const readsOf = (c: ShiftingCase): ValueDesc[] => (c.args.path as { reads: ValueDesc[] }).reads

/** The arguments as a snapshot on one read of the getter would hold them (lossless reads only). */
function snapshotsOf(c: ShiftingCase): unknown[] {
  return readsOf(c).filter(isLosslessDesc).map((read) => ({ ...(jsonOf(c.args) as object), path: jsonOf(read) }))
}

interface Seen {
  stage: string
  args: unknown
  frozen: boolean
}

export const shiftingStory = (c: ShiftingCase): string[] => [
  `tool probe${c.define ? ' made with defineTool (path: a string)' : ''}, with a finalizer; a listener, guard, wrapper, post-listener, observer`,
  `one call: probe(${valueWords(c.args)}), the getter of path answering ${readsOf(c).map(valueWords).join(', then ')}`,
]

export async function checkShifting(ctx: CustomContext, c: ShiftingCase): Promise<void> {
  const registry = await ctx.registry()
  const seen: Seen[] = []
  const see = (stage: string, args: unknown) => void seen.push({ stage, args, frozen: isDeepFrozen(args) })
  const validates = c.define && registry.defineTool !== undefined
  const def = liveTool('probe', {
    parameters: PARAMETERS,
    execute: (async (args: unknown, exec: ToolExecution) => (see('the body', args), see('the body\'s context', exec.arguments), { ok: true })) as never,
    finalizeContent: (exec: ToolExecution) => void see('finalizeContent', exec.arguments),
  })
  registry.register(validates ? registry.defineTool!(def) : def)
  registry.onPreExecute((exec, next) => (see('pre-execute', exec.arguments), next()))
  registry.guard((exec) => void see('a guard', exec.arguments))
  registry.onExecute((exec, next) => (see('tools/execute', exec.arguments), next()))
  registry.onPostExecute((exec, _result, next) => (see('post-execute', exec.arguments), next()))
  registry.onResult((exec) => void see('tools/result', exec.arguments))
  const caller = buildValue(c.args)
  await registry.execute(input('probe', caller))
  const ofCall = seen.splice(0)
  // Whether defineTool refuses plain arguments parameters refuse: one that does not (DEF-5's fault)
  // validates nothing, so what it ran cannot differ from what it validated.
  if (validates) await registry.execute(input('probe', { path: 7 }))
  judge(ctx.fail, c, caller, ofCall, validates && !seen.some((x) => x.stage === 'the body'))
}

/** Whether `value` comes back from a JSON round trip deep-equal (no bigint, function, undefined field, -0, NaN). */
function survivesJson(value: unknown): boolean {
  try {
    return deepEqualJson(value, JSON.parse(JSON.stringify(value)))
  } catch {
    return false
  }
}

function judge(fail: (detail: string) => void, c: ShiftingCase, caller: unknown, seen: Seen[], validates: boolean): void {
  const first = seen[0]
  if (!first) return
  for (const x of seen) {
    if (x.args === caller) return fail(`${x.stage} was handed the caller's own arguments object, not a snapshot`)
    if (!x.frozen) return fail(`${x.stage} saw arguments that are not deep-frozen`)
  }
  // A call ended at IN-2 (a legal end for it) hands only its finalizer and observers an execution.
  if (seen.every((x) => x.stage === 'finalizeContent' || x.stage === 'tools/result')) return
  const other = seen.find((x) => !deepEqualJson(x.args, first.args))
  if (other) return fail(`${other.stage} saw arguments ${safeJson(other.args)}, ${first.stage} ${safeJson(first.args)}`)
  // A read that is not lossless JSON, accepted and copied, is IN-2's fault, not this one's; unless the
  // first read was lossless and the stages hold one that is not: a later read, copied unchecked.
  if (!readsOf(c).every(isLosslessDesc)) {
    if (isLosslessDesc(readsOf(c)[0]!) && !survivesJson(first.args)) {
      fail(`the stages saw ${safeJson(first.args)}, not lossless JSON, though the caller's arguments read first were`)
    }
    return
  }
  if (!snapshotsOf(c).some((snapshot) => deepEqualJson(first.args, snapshot))) {
    return fail(`the stages saw ${safeJson(first.args)}: no lossless snapshot of one read of the caller's arguments`)
  }
  const path = (first.args as { path?: unknown }).path
  // Validation belongs to defineTool (DEF-5); what it validated must be what runs, so a body that
  // ran with a path `parameters` refuses ran with arguments other than the ones validated.
  if (validates && seen.some((x) => x.stage === 'the body') && typeof path !== 'string') {
    fail(`the body ran with path ${safeJson(path)}, which parameters refuse: not the arguments validated`)
  }
}
