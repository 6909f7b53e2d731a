/**
 * The routing table, call by call: which tool a call reaches, which hooks apply, and the entry
 * rows that may end it before the policy gates (gates.ts) and execution (IN-2, IN-4, IN-5, CAN-1,
 * CODE-1, CODE-5, DEF-5, MODE-1, MODE-2).
 */
import { isLosslessDesc, jsonOf } from '../../scenario/read-desc.js'
import type { CallSpec, Scenario, ToolSpec } from '../../scenario/types.js'
import { matchesSchema } from '../schema-check.js'
import type { Untagged } from './clause-tags.js'
import { bodyNeverRuns, wrapperChain } from './execution.js'
import { ended, finalized } from './finalize.js'
import { policyGates } from './gates.js'
import { postDecides, postWaterfall } from './post-execute.js'
import type { GoneHooks, Mode, PredictOptions } from './types.js'
import type { ShapeLatitude } from './shape-latitude.js'

/** The agent a call is routed as: a lookalike key is an agent of its own, with nothing registered for it. */
export const routedAgent = (call: CallSpec): string | undefined => (call.agent && call.lookalikeAgent ? `${call.agent} (lookalike)` : call.agent)

const inScope = (scope: string | undefined, agent: string | undefined) => scope === undefined || scope === agent
const indexes = <T extends { scope?: string }>(list: T[], agent: string | undefined) =>
  list.flatMap((item, i) => (inScope(item.scope, agent) ? [i] : []))

export { normalizePre } from './gates.js'

/**
 * The call an observer that disposes of itself is notified of: the first, in the order calls run
 * (one after another), whose agent it applies to. Every later call finds it gone.
 */
function firstNotified(scenario: Scenario, observer: number): number {
  return scenario.calls.findIndex((call) => indexes(scenario.observers, call.malformed ? undefined : routedAgent(call)).includes(observer))
}

export function visibleTool(scenario: Scenario, call: CallSpec, nested = false): ToolSpec | undefined {
  // In code mode only a call carrying the parent token of an execution in flight reaches native tools (CODE-2).
  if (scenario.config.mode === 'code' && !nested) return undefined
  const agent = routedAgent(call)
  const own = agent ? scenario.tools.find((t) => t.name === call.tool && t.scope === agent) : undefined
  return own ?? scenario.tools.find((t) => t.name === call.tool && t.scope === undefined)
}

export function route(scenario: Scenario, callIndex: number, options: PredictOptions, shapes: ShapeLatitude): Untagged {
  const call = options.nested ?? scenario.calls[callIndex]!
  const nested = options.nested !== undefined
  const agent = call.malformed ? undefined : routedAgent(call)
  const tool = call.malformed ? undefined : visibleTool(scenario, call, nested)
  // Classification reads only the name, arguments and scope: a missing signal does not change it.
  const classified = call.malformed === 'not-an-object' ? undefined : visibleTool(scenario, call, nested)
  const live = (stage: keyof GoneHooks, list: { scope?: string }[]) => indexes(list, agent).filter((k) => !options.gone?.[stage].includes(k))
  const e: Untagged = {
    tool,
    pre: live('pre', scenario.pre),
    guards: live('guard', scenario.guards),
    wrappers: live('wrapper', scenario.wrappers),
    post: live('post', scenario.post),
    observers: indexes(scenario.observers, agent).filter((k) => !scenario.observers[k]!.disposesSelf || firstNotified(scenario, k) === callIndex),
    preEntered: 0,
    approvalRequested: false,
    guardsEntered: 0,
    wrappersEntered: 0,
    bodyRuns: false,
    postRuns: false,
    postEntered: 0,
    finalizeRuns: false,
    outcome: { isError: true, clause: 'IN-4' },
    mode: predictMode(classified, call),
  }
  if (nested) e.nested = true
  if (options.gone) e.gone = options.gone
  // An ill-typed input still names its tool and arguments: its classification is DEF-5's when they are refused.
  if (classified && isLosslessDesc(call.args) && bodyNeverRuns(classified, call)) e.modeRefused = true
  if (!tool) {
    // An ill-typed input is IN-5's (S) alone: it resolves with an error outcome.
    if (call.malformed) {
      e.outcome = { isError: true, clause: 'IN-5' }
      return e
    }
    const hidden = scenario.config.mode === 'code' && scenario.tools.some((t) => t.name === call.tool)
    e.outcome = { isError: true, code: 'UNKNOWN_TOOL', clause: hidden ? (call.fakeParent ? 'CODE-5' : 'CODE-1') : 'IN-4' }
    if (!isLosslessDesc(call.args)) e.outcome.in2First = true
    // IN-4 names no stage a native call to no visible tool must end before (CODE-1 does, in code mode):
    // the policy may see it, when its arguments are lossless and it was not aborted at entry (IN-2, CAN-1).
    if (!hidden && isLosslessDesc(call.args) && !call.abortAtEntry) unknownAfterPolicy(scenario, call, agent, e, options)
    return e
  }
  e.finalizeRuns = tool.finalize !== undefined
  const end = (at: Untagged, outcome: Untagged['outcome'], postRuns: boolean | 'may' = false) => ended(at, tool, outcome, shapes, postRuns)
  if (!isLosslessDesc(call.args)) return end({ ...e, endedAtEntry: 'IN-2' }, { isError: true, clause: 'IN-2' })
  if (call.abortAtEntry) return end({ ...e, endedAtEntry: 'CAN-1' }, { isError: true, code: 'ABORTED_BEFORE_DISPATCH', clause: 'CAN-1' })
  // The routing row for arguments invalid for a defineTool tool: the hooks "may" see the call.
  if (bodyNeverRuns(tool, call)) e.defineRefuses = true
  if (options.defineAtEntry && bodyNeverRuns(tool, call)) return end({ ...e, bodyRefused: true }, { isError: true, code: 'INVALID_ARGS', clause: 'DEF-5' })

  const stopped = policyGates(scenario, call, agent, e, options)
  if (stopped) return end(e, stopped.outcome, stopped.postRuns)
  // OUT-2's latitude: a nested call may omit meta, so its presentationMeta may never be called.
  const projected = options.nested && options.omitMeta ? withoutMeta(tool) : tool
  const executed = wrapperChain(scenario.wrappers, e.wrappers, projected, call, shapes)
  e.wrappersEntered = executed.entered
  e.bodyRuns = executed.bodyRuns
  if (executed.refused) e.bodyRefused = true
  if (!executed.runPost) {
    e.postRuns = false
    return finalized(e, tool, executed.outcome, shapes)
  }
  e.postRuns = true
  const post = postWaterfall(scenario.post, e.post, projected, executed.outcome, shapes)
  e.postEntered = post.entered
  return finalized(e, tool, post.outcome, shapes)
}

function withoutMeta(tool: ToolSpec): ToolSpec {
  const { meta: _omitted, ...rest } = tool
  return rest
}

/** The policy's run for a call to no visible tool, on the branch where the hooks see it (IN-4). */
function unknownAfterPolicy(scenario: Scenario, call: CallSpec, agent: string | undefined, e: Untagged, options: PredictOptions): void {
  e.unknownMayReachPolicy = true
  if (!options.unknownAfterPolicy) return
  e.unknownAfterPolicy = true
  const stopped = policyGates(scenario, call, agent, e, options)
  // A stage that ended the call first makes its error (or still UNKNOWN_TOOL): no code is fixed.
  if (stopped) {
    e.outcome = { isError: true, clause: stopped.outcome.clause }
    e.postRuns = stopped.postRuns === 'may' ? undefined : stopped.postRuns
    return
  }
  // Post-execute may see it, as it may a denial; a deciding listener may change its code (a block).
  e.postRuns = undefined
  if (postDecides(scenario.post, e.post)) delete e.outcome.code
}

function predictMode(tool: ToolSpec | undefined, call: CallSpec): Mode {
  // MODE-2's latitude holds for every call with arguments, to a hidden or unknown tool too.
  if (call.malformed !== 'not-an-object' && !isLosslessDesc(call.args)) return 'unconstrained'
  if (!tool) return 'exclusive'
  if (tool.define && !matchesSchema(jsonOf(tool.parameters), jsonOf(call.args))) return 'exclusive'
  const c = tool.classifier
  if (c.kind === 'returns' || c.kind === 'getter-returns') return c.value === true ? 'parallel' : 'exclusive'
  if (c.kind === 'has-key') return hasOwnKey(jsonOf(call.args), c.key) ? 'parallel' : 'exclusive'
  return 'exclusive'
}

function hasOwnKey(json: unknown, key: string): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && Object.prototype.hasOwnProperty.call(json, key)
}
