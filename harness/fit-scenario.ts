/**
 * A scenario fitted to one adapter: only the features its profiles declare (`core` is always on),
 * then cut to its seams (seams.ts). A feature an adapter lacks is dropped or made plain, never
 * left for the adapter to ignore: the oracle predicts from the scenario, so what is left must be
 * what runs. An adapter with every gating profile and no seam declaration gets its cases as they are.
 */
import type { ConformanceAdapter, Profile } from './contract/adapter.js'
import { restrictScenario, seamsOf } from './seams.js'
import type { AgentName, CallSpec, Scenario, ToolSpec } from './scenario/types.js'

export type FittedAdapter = Pick<ConformanceAdapter, 'profiles' | 'seams'>

/** The profiles that gate parts of a scenario. */
const GATING: readonly Profile[] = ['scopes', 'code', 'timeout', 'define']

/** Whether `adapter` runs every scenario as it is (every gating profile, no seam declaration). */
export function takesEveryScenario(adapter: FittedAdapter): boolean {
  return adapter.seams === undefined && GATING.every((p) => adapter.profiles.includes(p))
}

/** `scenario` cut to the adapter's profiles, then to its seams; the same object when nothing is cut. */
export function fitScenario(scenario: Scenario, adapter: FittedAdapter): Scenario {
  if (takesEveryScenario(adapter)) return scenario
  const fitted = fitToProfiles(scenario, new Set(adapter.profiles))
  return adapter.seams === undefined ? fitted : restrictScenario(fitted, seamsOf(adapter))
}

/**
 * - no `scopes`: scoped hooks become global, as a registry without scoping holds them, so a
 *   generator's hook counts stay; a scoped tool too, unless its name is taken by a global tool (or
 *   an earlier one), when it is dropped. Calls keep their `agent`, a core input field.
 * - no `code`: the mode is native, program calls are dropped and fake parents cleared; bodies
 *   dispatch no nested calls (a nested call carries `parent`).
 * - no `timeout`: no timeout policy (TMO-1: a declared `timeoutMs` then sets no deadline).
 * - no `define`: tools are raw definitions, which own their validation (DEF-5).
 */
export function fitToProfiles(scenario: Scenario, profiles: ReadonlySet<Profile>): Scenario {
  let s = scenario
  if (!profiles.has('scopes')) s = withoutScopes(s)
  if (!profiles.has('code')) s = withoutCode(s)
  if (!profiles.has('timeout') && s.config.timeoutPolicy !== undefined) {
    const { timeoutPolicy: _policy, ...config } = s.config
    s = { ...s, config }
  }
  if (!profiles.has('define') && s.tools.some((t) => t.define !== undefined)) {
    s = { ...s, tools: s.tools.map(({ define: _define, ...tool }) => tool) }
  }
  return s
}

/** A hook or tool as a registry without scoping holds it: for everyone. */
const unscoped = <T extends { scope?: AgentName }>({ scope: _scope, ...item }: T): Omit<T, 'scope'> => item

function withoutScopes(scenario: Scenario): Scenario {
  // Of the tools that become same-named globals, the global one (else the first) is kept: no name is registered twice.
  const kept = (tool: ToolSpec, i: number) =>
    tool.scope === undefined || !scenario.tools.some((other, j) => other.name === tool.name && (other.scope === undefined || j < i))
  return {
    ...scenario,
    tools: scenario.tools.filter(kept).map(unscoped),
    pre: scenario.pre.map(unscoped),
    guards: scenario.guards.map(unscoped),
    wrappers: scenario.wrappers.map(unscoped),
    post: scenario.post.map(unscoped),
    observers: scenario.observers.map(unscoped),
  }
}

function withoutCode(scenario: Scenario): Scenario {
  const { mode, ...config } = scenario.config
  return {
    ...scenario,
    config: mode === undefined || mode === 'native' ? scenario.config : config,
    tools: scenario.tools.map(withoutDispatch),
    calls: dropCalls(scenario.calls, (call) => call.program !== undefined).map(({ fakeParent: _fake, ...call }) => call),
  }
}

function withoutDispatch(tool: ToolSpec): ToolSpec {
  if (!tool.body.steps.some((step) => step.kind === 'dispatch')) return tool
  return { ...tool, body: { ...tool.body, steps: tool.body.steps.filter((step) => step.kind !== 'dispatch') } }
}

/** The calls without those `drop` names, each `sameCallIdAs` renumbered (or cleared with its call). */
function dropCalls(calls: CallSpec[], drop: (call: CallSpec) => boolean): CallSpec[] {
  if (!calls.some(drop)) return calls
  const newIndex = new Map<number, number>()
  calls.forEach((call, i) => void (drop(call) || newIndex.set(i, newIndex.size)))
  return calls.filter((call) => !drop(call)).map(({ sameCallIdAs, ...call }) => {
    const to = sameCallIdAs === undefined ? undefined : newIndex.get(sameCallIdAs)
    return to === undefined ? call : { ...call, sameCallIdAs: to }
  })
}
