/**
 * CLM-4: the classifier is synchronous, deterministic, never writes its argument and has no side
 * effect; a success's value validates against output.schema; render, presentationMeta,
 * presentCall and presentResult are pure. One generated argument per case, on a fresh setup().
 */
import fc from 'fast-check'
import type { JsonValue, ToolDefinition, ToolExecutionResult } from '../contract/spec.js'
import type { ArgumentsGenerator } from './arguments.js'
import { callTool, jsonSnapshot, type CallOutcome } from './call-tool.js'
import { purityViolations, type PurityCheck } from './purity.js'
import { frozenJson, recordingJson } from './recording-proxy.js'
import { compileSchema } from './schema-validator.js'
import type { ClaimSettings } from './settings.js'
import { settleWithin, type Stalls } from './settle-within.js'
import { IMMEDIATE_HARNESS, withTrial } from './trial.js'
import type { LoadedTool, Violation } from './types.js'
import { assertNoViolation } from './violation.js'

const CLASSIFIER_CALLS = 8
const PROJECTION_CALLS = 2

export function purityProperty(tool: LoadedTool, args: ArgumentsGenerator, settings: ClaimSettings, stalls: Stalls) {
  return fc.asyncProperty(args.arbitrary, async (input) => {
    fc.pre(args.isValid(input))
    await withTrial(tool, IMMEDIATE_HARNESS, async ({ def, observe }) => {
      const violations: Violation[] = []
      if (typeof def.isConcurrencySafe === 'function') violations.push(...(await purityViolations(classifierCheck(def, input), observe)))
      const run = await settleWithin(callTool(def, input, { callId: 'clm4', signal: new AbortController().signal }), settings.trialTimeoutMs)
      if (!run.settled) {
        assertNoViolation(violations)
        stalls.skip(`a call did not settle within ${settings.trialTimeoutMs} ms`)
      }
      if (run.value.ok) violations.push(...outputViolations(def, run.value.value))
      for (const check of projectionChecks(def, input, run.value)) violations.push(...(await purityViolations(check, observe)))
      assertNoViolation(violations)
    })
  })
}

function classifierCheck(def: ToolDefinition, input: JsonValue): PurityCheck {
  return {
    check: 'classifier',
    times: CLASSIFIER_CALLS,
    synchronous: true,
    invoke: (writes) => def.isConcurrencySafe!(recordingJson(input, 'arguments', writes)),
  }
}

function outputViolations(def: ToolDefinition, value: unknown): Violation[] {
  const problem = compileSchema(def.output.schema)(value)
  return problem === undefined ? [] : [{
    check: 'output',
    detail: `the value ${JSON.stringify(value) ?? String(value)} does not validate against output.schema: ${problem}`,
  }]
}

function projectionChecks(def: ToolDefinition, input: JsonValue, outcome: CallOutcome): PurityCheck[] {
  const checks: PurityCheck[] = []
  const add = (check: string, invoke: PurityCheck['invoke']) => checks.push({ check, times: PROJECTION_CALLS, invoke })
  const value = outcome.ok ? (outcome.value as JsonValue) : undefined
  if (outcome.ok) {
    add('render', (w) => def.output.render(recordingJson(input, 'args', w), recordingJson(value!, 'value', w)))
    if (typeof def.output.presentationMeta === 'function') add(
      'presentationMeta',
      (w) => def.output.presentationMeta!(recordingJson(input, 'args', w), recordingJson(value!, 'value', w)),
    )
  }
  if (typeof def.presentCall === 'function') add('presentCall', (w) => def.presentCall!(recordingJson(input, 'args', w)))
  if (typeof def.presentResult === 'function') {
    const result = resultOf(def, input, outcome)
    add('presentResult', (w) => def.presentResult!(
      recordingJson(input, 'args', w),
      recordingJson(jsonSnapshot(result) as JsonValue, 'result', w) as unknown as ToolExecutionResult
    ))
  }
  return checks
}

/** The published result a registry would hand presentResult for this outcome. */
function resultOf(def: ToolDefinition, input: JsonValue, outcome: CallOutcome): ToolExecutionResult {
  if (!outcome.ok) return { isError: true, error: outcome.error, content: [{ type: 'text', text: outcome.error.message }] }
  let content: ToolExecutionResult['content'] = []
  try {
    content = def.output.render(frozenJson(input), frozenJson(outcome.value as JsonValue))
  } catch {
    // A throwing render is reported by the render check; presentResult still gets a result.
  }
  return { isError: false, value: outcome.value as JsonValue, content }
}
