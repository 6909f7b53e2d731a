/**
 * Seams: the places of a tool layer where the contract's behaviour lives. A registry shaped like
 * SPEC.md has them all; a tool layer people use (an SDK, a protocol server, a graph node) has some.
 * An adapter declares the seams its library really has (`ConformanceAdapter.seams`); a clause whose
 * seam is absent is reported `not applicable (no <seam> seam)`, never passed. An adapter without a
 * declaration has every seam, so DSH-shaped adapters need no change.
 *
 * Declaring a seam is a claim that the library implements it, not the adapter: an adapter that
 * builds a missing seam itself (a guard loop, an output check, a refusal for an odd answer) is
 * doing the library's job, and its verdicts say nothing about the library.
 */
import type { ConformanceAdapter, RegistryConfig, RegistryUnderTest } from './contract/adapter.js'
import { SEAMS, type Seam } from './contract/seam-names.js'
import { normalizePre } from './oracle/model/route.js'
import type { CallSpec, Scenario, ToolSpec, ValueDesc } from './scenario/types.js'
import { abortedAtASchedulerPoint } from './scenario/call-aborts.js'

export { SEAMS, type Seam } from './contract/seam-names.js'


/** A seam a clause needs, or a list of seams any one of which will do. */
export type SeamNeed = Seam | readonly Seam[]

/** The seams each certifiable clause needs; a clause not listed needs none (it holds for any tool layer). */
export const CLAUSE_SEAMS: Readonly<Record<string, readonly SeamNeed[]>> = {
  'DEF-1': ['registration'],
  'DEF-2': ['registration'],
  'DEF-3': ['presentation'],
  'DEF-4': ['registration'],
  'DEF-5': ['registration'],
  'SCH-1': ['projection'],
  'SCH-2': ['projection'],
  'SCH-3': ['projection'],
  'MODE-1': ['classification'],
  'MODE-2': ['classification'],
  'MODE-3': ['classification'],
  'IN-1': ['input-snapshot'],
  'IN-2': ['input-snapshot'],
  'IN-3': ['execution-token'],
  'PRE-1': ['pre-execute'],
  'PRE-2': ['pre-decision'],
  // A per-tool approval requirement can hold an odd value and an ask, not a deny or a throw.
  'PRE-3': [['pre-decision', 'tool-asks']],
  'PRE-4': ['pre-decision'],
  'PRE-5': [['pre-decision', 'tool-asks']],
  'PRE-6': ['pre-execute', 'cancellation'],
  'PRE-7': ['pre-execute'],
  'PRE-8': ['pre-execute'],
  'APR-1': ['pre-decision', 'approval'],
  'APR-2': ['pre-decision', 'approval'],
  'APR-3': ['pre-decision', 'approval', 'guards'],
  'GRD-1': ['guards'],
  'GRD-2': ['guards'],
  'GRD-3': ['guards'],
  'EXE-1': ['around-wrapper'],
  'EXE-2': ['around-wrapper', 'cancellation'],
  'EXE-3': ['around-wrapper'],
  'EXE-4': ['around-wrapper', 'output-validation'],
  'OUT-1': ['output-validation'],
  'OUT-2': ['rendering'],
  'OUT-3': ['error-conversion'],
  'OUT-4': ['error-conversion', 'error-codes'],
  'PST-1': ['post-execute'],
  'PST-2': ['post-execute'],
  'PST-3': ['post-execute'],
  'FIN-1': ['finalize'],
  'FIN-2': ['finalize'],
  'FIN-3': ['finalize'],
  'FIN-4': ['finalize'],
  'RES-1': ['result-observers'],
  'RES-2': ['result-observers'],
  'RES-4': ['result-observers'],
  'META-1': ['rendering'],
  'CAN-1': ['cancellation'],
  'CAN-2': ['cancellation'],
  'CAN-3': ['cancellation'],
  'CAN-4': ['cancellation'],
  'TMO-1': ['timeouts'],
  'TMO-2': ['timeouts'],
  'CTX-1': ['turn-context'],
  'CTX-2': ['turn-context'],
  'CTX-3': ['turn-context', 'nested-calls'],
  'CODE-2': ['nested-calls'],
}

/** The seams an adapter has: its declaration, or every seam when it declares none. */
export function seamsOf(adapter: Pick<ConformanceAdapter, 'seams'>): ReadonlySet<Seam> {
  const seams = new Set<Seam>(adapter.seams ?? SEAMS)
  if (seams.has('pre-execute')) seams.add('pre-decision')
  if (seams.has('tool-decisions')) seams.add('tool-asks')
  return seams
}

const alternatives = (need: SeamNeed): readonly Seam[] => (typeof need === 'string' ? [need] : need)

/** The first seam a clause needs that the adapter lacks, if any (of a list, the first named). */
export function missingSeam(clause: string, adapter: Pick<ConformanceAdapter, 'seams'>): Seam | undefined {
  const has = seamsOf(adapter)
  const unmet = (CLAUSE_SEAMS[clause] ?? []).find((need) => !alternatives(need).some((seam) => has.has(seam)))
  return unmet === undefined ? undefined : alternatives(unmet)[0]
}

export const notApplicableReason = (seam: Seam) => `not applicable (no ${seam} seam)`

/**
 * A scenario cut down to the seams an adapter has: hooks it cannot install are dropped, so every
 * other clause is still judged on the rest. Tool values and schemas are kept: a check an absent
 * seam would have made is routed by the oracle to that seam's clause, which is not applicable.
 */
export function restrictScenario(scenario: Scenario, seams: ReadonlySet<Seam>): Scenario {
  const keep = <T>(seam: Seam, list: T[]): T[] => (seams.has(seam) ? list : [])
  const config: Scenario['config'] = { ...scenario.config }
  if (!seams.has('approval')) delete config.approval
  if (!seams.has('timeouts')) delete config.timeoutPolicy
  const pre = seams.has('pre-execute') ? scenario.pre : seams.has('pre-decision') ? scenario.pre.slice(0, 1).map(({ scope: _s, tamper: _t, ...p }) => p) : []
  const restricted: Scenario = {
    ...scenario,
    config,
    tools: scenario.tools.map((tool) => restrictTool(tool, seams)),
    pre,
    guards: keep('guards', scenario.guards),
    wrappers: keep('around-wrapper', scenario.wrappers),
    post: keep('post-execute', scenario.post),
    observers: keep('result-observers', scenario.observers),
    calls: scenario.calls.filter((call) => seams.has('input-snapshot') || call.malformed === undefined).map((call) => restrictCall(call, seams)),
  }
  if (restricted.post.length === 0) restricted.calls = restricted.calls.map(abortedAtASchedulerPoint)
  // Without the waterfall there is one decision source: the listener kept, or else the per-tool decisions.
  const perTool = seams.has('tool-decisions') || seams.has('tool-asks')
  const decisionsFit = seams.has('pre-execute') || (pre.length === 0 && (seams.has('pre-decision') || perTool))
  const holdsDeny = seams.has('pre-decision') || seams.has('tool-decisions')
  const decisions = (scenario.toolDecisions ?? []).filter((d) => holdsDeny || normalizePre(d.decision) !== 'deny')
  if (decisionsFit && decisions.length > 0) restricted.toolDecisions = decisions
  else delete restricted.toolDecisions
  return restricted
}

function restrictCall(call: CallSpec, seams: ReadonlySet<Seam>): CallSpec {
  const { abortAtEntry, abortScheduled, abortAsBodySettles, abortWhilePostRuns, ...rest } = call
  const out: CallSpec = seams.has('cancellation') ? call : rest
  if (!seams.has('input-snapshot') && !isPlainJson(call.args)) return { ...out, args: {} }
  return out
}

function withoutCode(thrown: ValueDesc): ValueDesc {
  if (thrown === null || typeof thrown !== 'object' || Array.isArray(thrown) || !('$' in thrown) || thrown.$ !== 'error') return thrown
  const { code: _code, ...rest } = thrown as { $: 'error'; code?: string; data?: ValueDesc }
  return rest
}

/** A value description without tagged (`$`) parts: what a model's JSON text can carry. */
function isPlainJson(desc: ValueDesc): boolean {
  if (desc === null || typeof desc !== 'object') return typeof desc !== 'number' || Number.isFinite(desc)
  if (Array.isArray(desc)) return desc.every(isPlainJson)
  return !('$' in desc) && Object.values(desc).every(isPlainJson)
}

function restrictTool(tool: ToolSpec, seams: ReadonlySet<Seam>): ToolSpec {
  const { finalize, presentCall, timeoutMs, meta, ...rest } = tool
  const out: ToolSpec = { ...rest }
  // A layer that never renders or validates cannot fail there: predictions must not assume it does.
  if (!seams.has('rendering')) out.render = { kind: 'json-text' }
  else if (meta) out.meta = meta
  if (!seams.has('output-validation')) out.outputSchema = {}
  if (finalize && seams.has('finalize')) out.finalize = finalize
  if (presentCall && seams.has('presentation')) out.presentCall = presentCall
  if (timeoutMs !== undefined && seams.has('timeouts')) out.timeoutMs = timeoutMs
  const steps = tool.body.steps.filter((step) =>
    step.kind === 'defer' || step.kind === 'conclude' ? seams.has('turn-context') : step.kind === 'dispatch' ? seams.has('nested-calls') : true,
  )
  // A body that waits for its signal can only end through cancellation.
  let outcome = tool.body.outcome.kind === 'until-aborted' && !seams.has('cancellation') ? {
    kind: 'return' as const,
    value: tool.body.outcome.value,
  } : tool.body.outcome
  // Without error codes, a thrown error carries none: other clauses must not expect one.
  if ((outcome.kind === 'throw' || outcome.kind === 'reject') && !seams.has('error-codes')) outcome = { ...outcome, thrown: withoutCode(outcome.thrown) }
  out.body = { steps, outcome }
  return out
}

/** The registry method each hook seam is installed through. */
const SEAM_METHODS: Partial<Record<Seam, keyof RegistryUnderTest>> = {
  projection: 'schemas',
  classification: 'executionMode',
  'pre-execute': 'onPreExecute',
  'pre-decision': 'onPreExecute',
  'tool-decisions': 'decideTool',
  'tool-asks': 'decideTool',
  guards: 'guard',
  'around-wrapper': 'onExecute',
  'post-execute': 'onPostExecute',
  'result-observers': 'onResult',
}

/**
 * Where a seam declaration does not match the adapter: a declared seam whose method is missing,
 * or a declared approval seam whose `create` never reads `config.approval`. One line each, naming
 * the adapter and the seam. An adapter without a declaration is not checked here.
 */
export async function seamMismatches(adapter: ConformanceAdapter): Promise<string[]> {
  if (adapter.seams === undefined) return []
  const problems: string[] = []
  const unknown = adapter.seams.filter((s) => !(SEAMS as readonly string[]).includes(s))
  for (const seam of unknown) problems.push(`adapter ${adapter.name}: unknown seam "${seam}" (known: ${SEAMS.join(', ')})`)
  let readApproval = false
  const config = {} as RegistryConfig
  Object.defineProperty(config, 'approval', { enumerable: true, get: () => ((readApproval = true), undefined) })
  const registry = await adapter.create(config)
  try {
    for (const seam of adapter.seams) {
      const method = SEAM_METHODS[seam]
      if (!method) continue
      if (typeof registry[method] !== 'function') {
        problems.push(`adapter ${adapter.name}: declares the ${seam} seam but its registry has no ${method}()`)
        continue
      }
      const refused = installRefused(registry, method)
      if (refused) problems.push(`adapter ${adapter.name}: declares the ${seam} seam but its registry's ${method}() throws: ${refused}`)
    }
    if (adapter.seams.includes('approval') && !readApproval) problems.push(
      `adapter ${adapter.name}: declares the approval seam but create() never installs config.approval`,
    )
  } finally {
    await registry.dispose?.()
  }
  return problems
}

/** Installs (and removes) a do-nothing hook through `method`; the error text if the registry refuses. */
function installRefused(registry: RegistryUnderTest, method: keyof RegistryUnderTest): string | undefined {
  const hooks: Partial<Record<keyof RegistryUnderTest, unknown>> = {
    onPreExecute: (_exec: unknown, next: () => unknown) => next(),
    guard: () => undefined,
    onExecute: (_exec: unknown, next: () => unknown) => next(),
    onPostExecute: (_exec: unknown, _result: unknown, next: () => unknown) => next(),
    onResult: () => undefined,
  }
  if (!(method in hooks)) return undefined
  try {
    const dispose = (registry[method] as (hook: unknown) => unknown)(hooks[method])
    if (typeof dispose === 'function') dispose()
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** The seam a clause needs that the adapter declares but does not implement, as a problem line. */
export function mismatchFor(clause: string, problems: readonly string[]): string | undefined {
  return (CLAUSE_SEAMS[clause] ?? []).flatMap(alternatives).map((seam) => problems.find((p) => p.includes(`the ${seam} seam`))).find((p) => p !== undefined)
}
