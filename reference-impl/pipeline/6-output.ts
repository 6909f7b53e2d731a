/**
 * Stage 6: the canonical output. Honours OUT-1 (the value is snapshotted as lossless JSON and
 * validated against output.schema, else INVALID_TOOL_OUTPUT), OUT-2 (content and meta are the
 * output's pure projections; a projection that throws or yields non-lossless JSON is
 * INVALID_TOOL_OUTPUT), OUT-3 (a thrown body becomes model-readable text), OUT-4 (a thrown value's
 * own string `code` is kept), EXE-4 (a wrapper's made-up success goes through the same path).
 */
import type { JsonValue, ToolExecutionResult } from '../../harness/contract/spec.js'
import { checkContent } from '../content.js'
import { deepFreeze, describeThrown, snapshotJson } from '../json/lossless.js'
import { failure, invalidOutput, success } from '../outcomes.js'
import type { CallState } from './call-state.js'

export function valueToResult(call: CallState, raw: unknown): ToolExecutionResult {
  const snap = snapshotJson(raw)
  if (!snap.ok) return invalidOutput(`the value is not lossless JSON (${snap.reason} at ${snap.path})`)
  const value = deepFreeze(snap.value)
  const invalid = call.tool.validateOutput(value)
  if (invalid !== undefined) return invalidOutput(`the value does not match output.schema (${invalid})`)
  return project(call, value)
}

function project(call: CallState, value: JsonValue): ToolExecutionResult {
  const { tool, exec } = call
  let rendered: unknown
  try {
    rendered = tool.render.call(tool.source.output, exec.arguments, value)
  } catch (error) {
    return invalidOutput(`output.render threw (${describeThrown(error)})`)
  }
  const content = checkContent(rendered)
  if (!content.ok) return invalidOutput(`output.render: ${content.reason}`)
  if (!tool.presentationMeta) return success(value, content.value)
  let rawMeta: unknown
  try {
    rawMeta = tool.presentationMeta.call(tool.source.output, exec.arguments, value)
  } catch (error) {
    return invalidOutput(`output.presentationMeta threw (${describeThrown(error)})`)
  }
  if (rawMeta === undefined) return success(value, content.value)
  const meta = snapshotJson(rawMeta)
  if (!meta.ok) return invalidOutput(`output.presentationMeta is not lossless JSON (${meta.reason} at ${meta.path})`)
  return success(value, content.value, meta.value)
}

export function thrownToResult(thrown: unknown): ToolExecutionResult {
  const message = `Tool failed: ${describeThrown(thrown)}`
  return failure(message, ownStringCode(thrown))
}

function ownStringCode(thrown: unknown): string | undefined {
  if ((typeof thrown !== 'object' && typeof thrown !== 'function') || thrown === null) return undefined
  try {
    const descriptor = Object.getOwnPropertyDescriptor(thrown, 'code')
    return descriptor && typeof descriptor.value === 'string' ? descriptor.value : undefined
  } catch {
    return undefined
  }
}
