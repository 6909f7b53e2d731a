/**
 * A failing scenario told as a short story: the tools, the hooks and the calls, a line each, in
 * words rather than JSON. Scenario values are harness-made descriptors, so this reads only
 * plain data; tagged values (`{ $: 'bigint' }`) are shown as ‹bigint›. Scenario properties tell
 * their cases with it (scenario-property.ts), and reports fall back on it for saved scenarios.
 */
import type {
  ApprovalSpec,
  BodySpec,
  CallSpec,
  ClassifierSpec,
  DecisionSpec,
  DispatchStep,
  FinalizeSpec,
  GuardSpec,
  ProjectionSpec,
  Scenario,
  ThrowsSpec,
  ToolSpec,
  ValueDesc,
  WrapperAction,
} from './types.js'
import { valueWords } from '../safe/value-text.js'

/** A value descriptor in words: whole up to a generous bound, tagged values as ‹tag›, long strings shortened in the middle. */
export const showValue = (value: ValueDesc | undefined): string => valueWords(value)

const scoped = (scope: string | undefined) => (scope ? ` (agent ${scope})` : '')

function classifier(spec: ClassifierSpec): string {
  switch (spec.kind) {
    case 'absent':
      return 'no classifier'
    case 'throws':
      return 'classifier throws'
    case 'returns':
      return `classifier returns ${showValue(spec.value)}`
    case 'not-a-function':
      return `classifier is ${showValue(spec.value)}`
    case 'getter-returns':
      return `classifier getter returns ${showValue(spec.value)}`
    case 'has-key':
      return `classifier returns true when its argument has the key ${showValue(spec.key)}, ${spec.throwsWithout ? 'else throws a TypeError' : 'else false'}`
  }
}

function body(spec: BodySpec): string {
  const steps = spec.steps.map((step) => {
    if (step.kind === 'defer') return `defers ${showValue(step.context)}${step.changeAfter ? ', then rewrites the object it deferred' : ''}`
    if (step.kind === 'dispatch') {
      return `calls ${step.tool}(${showValue(step.args)})${nestedCaller(step)}${step.abortedSignal ? ' with a signal of its own, already aborted' : ''}`
    }
    if (step.kind === 'conclude-later') return 'concludes the turn through its saved context after returning'
    return step.kind === 'conclude' ? 'concludes the turn' : 'awaits'
  })
  const o = spec.outcome
  const end =
    o.kind === 'return'
      ? `returns ${showValue(o.value)}`
      : o.kind === 'until-aborted'
        ? `waits for its signal, then returns ${showValue(o.value)}`
        : `${o.kind === 'throw' ? 'throws' : 'rejects with'} ${showValue(o.thrown)}`
  return `${spec.plain ? '(a plain function, not async) ' : ''}${[...steps, end].join(', ')}`
}

const nestedCaller = (step: DispatchStep) => (step.agent === undefined ? '' : step.agent === 'none' ? ' for no agent' : ` for agent ${step.agent}`)

const throwsWords = (spec: ThrowsSpec) => (spec.async ? 'is async and rejects' : 'throws')

const projection = (what: string, spec: ProjectionSpec) =>
  spec.kind === 'json-text' ? `${what} as JSON text` : spec.kind === 'throws' ? `${what} ${throwsWords(spec)}` : `${what} returns ${showValue(spec.value)}`

const finalizer = (spec: FinalizeSpec) => (spec.kind === 'keep'
  ? 'finalizer keeps the content'
  : spec.kind === 'throws' ? `finalizer ${throwsWords(spec)}` : `finalizer returns ${showValue(spec.value)}`)

function tool(spec: ToolSpec): string {
  const parts = [classifier(spec.classifier), `body ${body(spec.body)}`, projection('render', spec.render)]
  if (spec.meta) parts.push(projection('meta', spec.meta))
  if (spec.finalize) parts.push(finalizer(spec.finalize))
  if (spec.timeoutMs !== undefined) parts.push(`timeoutMs ${spec.timeoutMs}`)
  if (spec.define) parts.push('made with defineTool')
  return `tool ${spec.name}${scoped(spec.scope)}: ${parts.join('; ')}`
}

function decision(spec: DecisionSpec): string {
  if (spec.kind === 'returns') return `answers ${showValue(spec.value)}`
  if (spec.kind === 'delegate-twice') return 'calls next() twice'
  if (spec.kind === 'delegate-again-later') return 'delegates, and calls next() again after it returned'
  if (spec.kind === 'throws-after-next') return 'calls next(), then throws'
  return spec.kind === 'delegate' ? 'delegates' : spec.kind
}

function wrapper(action: WrapperAction): string {
  if (action.kind === 'made-up') return `returns a${action.frozen ? ' frozen' : ''} made-up result ${showValue(action.result)}`
  if (action.kind === 'unawaited-next') return `calls next() without waiting for it and returns a made-up result ${showValue(action.result)}`
  if (action.kind === 'pass') return 'calls next()'
  if (action.kind === 'throws-after-next') return 'calls next(), then throws'
  if (action.kind === 'made-up-after-next') return `calls next(), then returns a made-up result ${showValue(action.result)}`
  if (action.kind === 'next-twice') return 'calls next() twice'
  if (action.kind === 'replace-signal') return 'replaces the signal'
  if (action.kind === 'empty-override') return action.signalKey ? 'calls next({ signal: undefined })' : 'calls next({})'
  return action.kind
}

const once = (hook: { disposesSelf?: true }) => (hook.disposesSelf ? ' (disposes of itself when first entered)' : '')

const timed = (timing: string) => (timing === 'await' ? ' after a scheduler point' : '')

const verdict = (v: GuardSpec['verdict']) =>
  (v.kind === 'returns' ? `returns ${showValue(v.value)}` : v.kind === 'pass' ? 'passes' : 'throws (asked again in the same call, passes)')

function approval(spec: ApprovalSpec | undefined): string {
  if (!spec) return 'approval: none configured'
  if (spec.kind === 'returns') {
    const later = spec.later?.length ? `, then, a request each, ${spec.later.map(showValue).join(', ')}` : ''
    return `approval: answers ${showValue(spec.value)}${later}${timed(spec.timing)}`
  }
  return `approval: ${spec.kind === 'never' ? 'never answers' : spec.kind}`
}

function call(spec: CallSpec, index: number): string {
  const who = spec.agent ? ` as ${spec.lookalikeAgent ? 'a lookalike of ' : ''}agent ${spec.agent}` : ''
  const extras = [
    spec.abortAtEntry && 'signal aborted at entry',
    spec.abortScheduled && 'caller aborts at a scheduler point',
    spec.abortAsBodySettles && 'caller aborts the moment the body settles',
    spec.abortWhilePostRuns && 'caller aborts as post-execute begins',
    spec.callerChangesArgs && `the caller changes its ${spec.callerChangesArgs === 'live' ? '' : 'shallow-frozen '}arguments once execute is called`,
    spec.abortReason !== undefined && `every abort gives the reason ${showValue(spec.abortReason)}`,
    spec.fakeParent && 'carries a parent that is not in flight',
    spec.callerToken && 'carries a token of its own',
    spec.reusesArgsObject && 'handed the arguments object of the call before, changed in place',
    spec.reusesInput && spec.sameCallIdAs !== undefined && `handed the very input object of call c${spec.sameCallIdAs}`,
    spec.spreadsOptions && 'its input carries parent (and, with no agent, agent) as keys holding undefined',
    spec.malformed && `ill-typed input (${spec.malformed})`,
    spec.program && `runs a program: ${spec.program.map((p) => `${p.tool}(${showValue(p.args)})`).join(', ')}`,
  ].filter(Boolean)
  return `call c${index}: ${spec.tool}(${showValue(spec.args)})${who}${extras.length ? `, ${extras.join(', ')}` : ''}`
}

/** The scenario, a line per tool, hook and call. */
export function scenarioStory(scenario: Scenario): string[] {
  const mode = scenario.config.mode && scenario.config.mode !== 'native' ? [`mode: ${scenario.config.mode}`] : []
  const hooks = [
    ...scenario.pre.map(
      (h, i) =>
        `pre-execute #${i}${scoped(h.scope)}${timed(h.timing)}${once(h)} ${decision(h.decision)}${h.tamper ? ' (tries to rewrite the execution)' : ''}`,
    ),
    ...(scenario.toolDecisions ?? []).map((d) => `per-tool decision for ${d.tool}: ${showValue(d.decision)} when the listeners delegate`),
    ...scenario.guards.map((g, i) => `guard #${i}${scoped(g.scope)}${once(g)} ${verdict(g.verdict)}`),
    ...scenario.wrappers.map((w, i) => `wrapper #${i}${scoped(w.scope)}${timed(w.timing)}${once(w)} ${wrapper(w.action)}`),
    ...scenario.post.map((p, i) => `post-execute #${i}${scoped(p.scope)}${timed(p.timing)}${once(p)} ${decision(p.decision)}`),
    ...scenario.observers.map((o, i) => {
      const self = o.disposesSelf ? ' disposes of itself when first notified' : ''
      const throws = o.throws ? (o.async ? ' rejects' : ' throws') : ''
      return `observer #${i}${scoped(o.scope)}${o.async ? ' (async)' : ''}${self}${throws}`
    }),
  ]
  const calls = scenario.calls.map(call)
  const order = scenario.calls.length > 1 ? [scenario.concurrent ? 'the calls run concurrently' : 'the calls run one after another'] : []
  const odd = scenario.hooksThrow === undefined ? [] : [`whatever throws or rejects above (but the bodies) throws ${showValue(scenario.hooksThrow)}`]
  const more = scenario.overridesMore ? ['a wrapper that replaces the signal also hands next() arguments, a name, a callId, an agent and a token'] : []
  return [...mode, ...scenario.tools.map(tool), approval(scenario.config.approval), ...hooks, ...calls, ...order, ...odd, ...more]
}
