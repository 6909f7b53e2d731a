// Builders for hand-written scenarios and traces fed straight to the judge (tests/oracle-examples*.test.ts):
// one global tool `lookup` and one call to it, unless a case says otherwise.
import type { CallRecord, Stage, StageEvent, Trace, TraceEvent } from '../harness/scenario/trace.js'
import { emptyScenario, type Scenario, type ToolSpec } from '../harness/scenario/types.js'
import type { ToolExecutionResult } from '../harness/contract/spec.js'
import { judge, judgeFindings } from '../harness/oracle/judge.js'

export const tool = (over: Partial<ToolSpec> = {}): ToolSpec => ({
  name: 'lookup',
  description: 'looks a thing up',
  parameters: {},
  outputSchema: {},
  classifier: { kind: 'absent' },
  body: { steps: [], outcome: { kind: 'return', value: 1 } },
  render: { kind: 'json-text' },
  ...over,
})

export const scenarioOf = (over: Partial<Scenario> = {}): Scenario => ({ ...emptyScenario(), tools: [tool()], calls: [{ tool: 'lookup', args: {} }], ...over })

export const enter = (stage: Stage, over: Partial<StageEvent> = {}): StageEvent => ({
  ev: 'enter',
  stage,
  call: 'c0',
  index: 0,
  token: 1,
  execFrozen: true,
  ...over,
})
export const leave = (stage: Stage, index = 0, call = 'c0'): TraceEvent => ({ ev: 'leave', stage, call, index })
export const settled = (call = 'c0'): TraceEvent => ({ ev: 'settled', call })
export const abort = (call = 'c0'): TraceEvent => ({ ev: 'abort', call })

/** The body of `lookup` entered and left, having run with `args`. */
export const bodyRan = (over: Partial<StageEvent> = {}, args: unknown = {}): TraceEvent[] => [
  enter('body', { detail: JSON.stringify({ tool: 'lookup', name: 'lookup', args }), ...over }),
  leave('body'),
]

export function deepFreeze<T>(value: T): T {
  // Frozen before its items, so a cycle ends where it closes.
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const item of Object.values(value)) deepFreeze(item)
  }
  return value
}

export const success = (value: unknown, more: object = {}): ToolExecutionResult =>
  deepFreeze({ isError: false, value, content: [{ type: 'text', text: JSON.stringify(value) }], ...more }) as ToolExecutionResult

export const failure = (more: object = {}): ToolExecutionResult =>
  deepFreeze({ isError: true, content: [{ type: 'text', text: 'it failed' }], error: { message: 'it failed' }, ...more }) as ToolExecutionResult

export const record = (result: ToolExecutionResult, over: Partial<CallRecord> = {}): CallRecord => ({
  callId: 'c0',
  result,
  mode: 'exclusive',
  observed: [],
  ...over,
})

export const traceOf = (events: TraceEvent[], ...calls: CallRecord[]): Trace => ({ events, calls })

/** The checks that found something (`<clause>:<module>/<site>`), after asserting `judge` reports the same clauses. */
export function checksOf(scenario: Scenario, trace: Trace): string[] {
  const findings = judgeFindings(scenario, trace)
  const violations = judge(scenario, trace)
  if (JSON.stringify(violations.map((v) => v.clause)) !== JSON.stringify(findings.map((f) => f.clause))) throw new Error('judge and judgeFindings disagree')
  if (findings.some((f) => !f.check.startsWith(`${f.clause}:`))) throw new Error('a check is filed under another clause than its finding')
  return findings.map((f) => f.check)
}
