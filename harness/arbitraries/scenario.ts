/**
 * Whole scenarios: tools, hooks, an approval service and calls, shaped by what a property wants
 * to vary. Every part has a default, so a property names only what it focuses on.
 */
import fc from 'fast-check'
import type {
  ApprovalSpec, CallSpec, GuardSpec, ObserverSpec, PostSpec, PreSpec, Scenario, ToolDecisionSpec, ToolSpec, ValueDesc, WrapperSpec,
} from '../scenario/types.js'
import { approval, guard, observer, postListener, preListener, wellFormedPre, wrapper } from './hooks.js'
import { abortedAtASchedulerPoint, abortedWhileWaiting } from '../scenario/call-aborts.js'
import { tool } from './tools.js'
import { anyValue, jsonValue } from './values.js'

export interface CallOptions {
  max?: number
  /** Probability weights (0 = never) for the call-level edges. */
  abortAtEntry?: number
  abortScheduled?: number
  /** Weight of the calls whose caller aborts as the body settles, in place of a scheduled abort. */
  abortAsBodySettles?: number
  /** Weight of the calls whose caller aborts as post-execute begins, in place of a scheduled abort. */
  abortWhilePostRuns?: number
  agents?: boolean
  unknownNames?: boolean
  fakeParent?: number
  /** Weight (0-99) of a later call handed the first call's callId; calls run one after another. */
  sameCallId?: number
  args?: fc.Arbitrary<ValueDesc>
}

export interface ScenarioShape {
  tools?: fc.Arbitrary<ToolSpec[]>
  pre?: fc.Arbitrary<PreSpec[]>
  /**
   * The value `pre` decides with, placed in half the cases as a per-tool decision for one of the
   * scenario's tools instead (no listener), as an app's per-tool approval table holds it; another
   * tool may have a well-formed decision of its own.
   */
  perTool?: fc.Arbitrary<ValueDesc>
  /** The share (0-100) of cases that place `perTool` as a per-tool decision; 50 unless given. */
  perToolShare?: number
  guards?: fc.Arbitrary<GuardSpec[]>
  wrappers?: fc.Arbitrary<WrapperSpec[]>
  post?: fc.Arbitrary<PostSpec[]>
  observers?: fc.Arbitrary<ObserverSpec[]>
  approval?: fc.Arbitrary<ApprovalSpec | undefined>
  mode?: fc.Arbitrary<Scenario['config']['mode']>
  timeoutPolicy?: boolean
  concurrent?: boolean
  calls?: CallOptions
}

const none = <T>() => fc.constant<T[]>([])

export const defaults = {
  tools: fc.uniqueArray(tool(), { minLength: 1, maxLength: 2, selector: (t) => `${t.name}/${t.scope ?? ''}` }),
  pre: fc.array(preListener(), { maxLength: 3 }),
  guards: fc.array(guard, { maxLength: 2 }),
  wrappers: fc.array(wrapper, { maxLength: 2 }),
  post: fc.array(postListener, { maxLength: 2 }),
  observers: fc.array(observer, { maxLength: 2 }),
  approval: fc.option(approval, { nil: undefined, freq: 3 }),
}

/** Everything off except what the shape names: the smallest scenario a property can vary. */
export const quiet: Required<Pick<ScenarioShape, 'pre' | 'guards' | 'wrappers' | 'post' | 'observers'>> = {
  pre: none(),
  guards: none(),
  wrappers: none(),
  post: none(),
  observers: none(),
}

export function scenario(shape: ScenarioShape = {}): fc.Arbitrary<Scenario> {
  const tools = shape.tools ?? defaults.tools
  return fc
    .record({
      tools,
      pre: shape.pre ?? defaults.pre,
      guards: shape.guards ?? defaults.guards,
      wrappers: shape.wrappers ?? defaults.wrappers,
      post: shape.post ?? defaults.post,
      observers: shape.observers ?? defaults.observers,
      approval: shape.approval ?? defaults.approval,
      mode: shape.mode ?? fc.constant(undefined),
    })
    .chain((parts) => (shape.perTool ? perToolInstead(parts, shape.perTool, shape.perToolShare ?? 50) : fc.constant(parts)))
    .chain((parts) =>
      calls(parts.tools, { sameCallId: shape.concurrent ? 0 : 10, ...shape.calls }).map((callList) => assemble(parts, callList, shape)),
    )
}

/** A call's arguments, unless a property draws its own: mostly the keys tools read, sometimes any value. */
export const callArguments: fc.Arbitrary<ValueDesc> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom('path', 'n', 'q'), jsonValue, { maxKeys: 2 }) as fc.Arbitrary<ValueDesc> },
  { weight: 1, arbitrary: anyValue },
)

/**
 * Arguments that hold an own key named __proto__ (most of them): a registry or SDK that parses or
 * copies arguments (`out[key] = …`, secure-json-parse) may refuse or lose it.
 */
export const protoKeyedArguments = fc.dictionary(fc.constantFrom('__proto__', 'path'), jsonValue, { minKeys: 1, maxKeys: 2 }) as fc.Arbitrary<ValueDesc>

/** Call arguments, with a key named __proto__ in one case in four. */
export const argumentsWithProtoKey: fc.Arbitrary<ValueDesc> = fc.oneof({ weight: 3, arbitrary: callArguments }, { weight: 1, arbitrary: protoKeyedArguments })

function calls(tools: ToolSpec[], options: CallOptions): fc.Arbitrary<CallSpec[]> {
  const names = tools.map((t) => t.name)
  const name = options.unknownNames ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, {
    weight: 1,
    arbitrary: fc.constantFrom('missing_tool', 'constructor', '__proto__'),
  }) : fc.constantFrom(...names)
  const flag = (weight = 0) => (weight > 0 ? fc.nat(99).map((n) => n < weight) : fc.constant(false))
  const call = fc.record({
    tool: name,
    args: options.args ?? callArguments,
    agent: options.agents ? fc.option(fc.constantFrom<'A' | 'B'>('A', 'B'), { nil: undefined }) : fc.constant(undefined),
    abortAtEntry: flag(options.abortAtEntry),
    abortScheduled: flag(options.abortScheduled),
    abortAsBodySettles: flag(options.abortAsBodySettles),
    abortWhilePostRuns: flag(options.abortWhilePostRuns),
    fakeParent: flag(options.fakeParent),
    sameCallId: flag(options.sameCallId),
  })
  return fc.array(call, { minLength: 1, maxLength: options.max ?? 1 }).map((list) =>
    list.map(({ agent, abortAtEntry, abortScheduled, abortAsBodySettles, abortWhilePostRuns, fakeParent, sameCallId, ...rest }, index) => {
      const spec: CallSpec = { ...rest }
      if (agent) spec.agent = agent
      if (abortAtEntry) spec.abortAtEntry = true
      if (abortAsBodySettles) spec.abortAsBodySettles = true
      else if (abortWhilePostRuns) spec.abortWhilePostRuns = true
      else if (abortScheduled) spec.abortScheduled = true
      if (fakeParent) spec.fakeParent = true
      if (sameCallId && index > 0) spec.sameCallIdAs = 0
      return spec
    }),
  )
}

/** The generated parts of a scenario: its tools and hooks as the scenario holds them, and its config choices. */
type ScenarioParts = Pick<Scenario, 'tools' | 'pre' | 'guards' | 'wrappers' | 'post' | 'observers' | 'toolDecisions'> & {
  approval: ApprovalSpec | undefined
  mode: Scenario['config']['mode']
}

function perToolInstead(parts: ScenarioParts, value: fc.Arbitrary<ValueDesc>, share: number): fc.Arbitrary<ScenarioParts> {
  const names = [...new Set(parts.tools.map((t) => t.name))]
  const other = (tool: string) => names.filter((n) => n !== tool)
  const another = (tool: string) =>
    other(tool).length ? fc.option(fc.record({ tool: fc.constantFrom(...other(tool)), decision: wellFormedPre }), { nil: undefined }) : fc.constant(undefined)
  const decisions = fc.constantFrom(...names).chain((tool) => fc.tuple(value.map((decision): ToolDecisionSpec => ({ tool, decision })), another(tool)))
  return fc.tuple(fc.nat(99).map((n) => n < share), decisions).map(([instead, [decisive, second]]) =>
    instead ? { ...parts, pre: [], toolDecisions: second ? [decisive, second] : [decisive] } : parts,
  )
}

function assemble(parts: ScenarioParts, callList: CallSpec[], shape: ScenarioShape): Scenario {
  const config: Scenario['config'] = {}
  if (parts.mode) config.mode = parts.mode
  if (parts.approval) config.approval = parts.approval
  if (shape.timeoutPolicy) config.timeoutPolicy = true
  // A call that could wait forever (a never-settling approval, a body waiting for its signal)
  // always gets a scheduled abort, so every case ends (an abort as the body settles would come
  // after the abort it waits for: none).
  const waits = (call: CallSpec) =>
    parts.approval?.kind === 'never' || parts.tools.some((t) => t.name === call.tool && t.body.outcome.kind === 'until-aborted')
  const s: Scenario = {
    version: 1,
    config,
    tools: parts.tools,
    pre: parts.pre,
    guards: parts.guards,
    wrappers: parts.wrappers,
    post: parts.post,
    observers: parts.observers,
    calls: callList.map((call) => (waits(call) && !call.abortAtEntry ? abortedWhileWaiting(call) : call)),
  }
  if (s.post.length === 0) s.calls = s.calls.map(abortedAtASchedulerPoint)
  if (parts.toolDecisions) s.toolDecisions = parts.toolDecisions
  if (shape.concurrent) s.concurrent = true
  return s
}
