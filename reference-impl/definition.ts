/**
 * Registration checks and the definition snapshot. Honours DEF-1 (output is mandatory, timeoutMs
 * is a positive finite number), DEF-4 (parameters are lossless JSON) and SCH-1 (only whitelisted
 * fields are kept for the model-visible layer; unknown extra fields are never read), DEF-3 (the
 * presentation layer, presentCall and presentResult, is never read or called by the registry).
 */
import type { JsonValue, ToolDefinition } from '../harness/contract/spec.js'
import { deepFreeze, describeThrown, snapshotJson } from './json/lossless.js'
import { compileValidator, type Validator } from './json/schema-validator.js'

export const RUN_CODE = 'run_code'

/** A definition as the registry holds it: read once at registration, never re-read. */
export interface RegisteredTool {
  readonly name: string
  readonly description: string
  readonly parameters: JsonValue
  /** The object the author registered: `this` for its methods. */
  readonly source: ToolDefinition
  readonly execute: Function
  readonly render: Function
  readonly presentationMeta: Function | undefined
  readonly validateOutput: Validator
  readonly finalizeContent: Function | undefined
  readonly timeoutMs: number | undefined
  /** Kept raw: anything but a function is classified exclusive (MODE-2). */
  readonly isConcurrencySafe: unknown
}

export function readDefinition(def: unknown, reserved: readonly string[] = [RUN_CODE]): RegisteredTool {
  if (typeof def !== 'object' || def === null) throw new TypeError('Tool definition must be an object')
  const name = read(def, 'name', '(unnamed)')
  if (typeof name !== 'string' || name === '') throw new TypeError('Tool definition field "name" must be a non-empty string')
  const fail = (field: string, why: string): never => {
    throw new TypeError(`Tool "${name}": field "${field}" ${why}`)
  }
  if (reserved.includes(name)) fail('name', `is reserved ("${name}" belongs to the registry)`)
  const description = read(def, 'description', name)
  if (typeof description !== 'string') fail('description', 'must be a string')
  const parameters = snapshotJson(read(def, 'parameters', name))
  if (!parameters.ok) fail('parameters', `must be lossless JSON (${parameters.reason} at ${parameters.path})`)
  const execute = read(def, 'execute', name)
  if (typeof execute !== 'function') fail('execute', 'must be a function')
  const output = read(def, 'output', name)
  if (typeof output !== 'object' || output === null) fail('output', 'is mandatory')
  const schema = snapshotJson(read(output as object, 'schema', name))
  if (!schema.ok) fail('output.schema', 'is mandatory and must be lossless JSON')
  const render = read(output as object, 'render', name)
  if (typeof render !== 'function') fail('output.render', 'is mandatory and must be a function')
  const presentationMeta = read(output as object, 'presentationMeta', name)
  if (presentationMeta !== undefined && typeof presentationMeta !== 'function') fail('output.presentationMeta', 'must be a function')
  const finalizeContent = read(def, 'finalizeContent', name)
  if (finalizeContent !== undefined && typeof finalizeContent !== 'function') fail('finalizeContent', 'must be a function')
  const timeoutMs = read(def, 'timeoutMs', name)
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    fail('timeoutMs', 'must be a positive finite number')
  }
  let validateOutput: Validator
  try {
    validateOutput = compileValidator((schema as { value: JsonValue }).value)
  } catch (error) {
    return fail('output.schema', `is not a valid JSON Schema (${describeThrown(error)})`)
  }
  let isConcurrencySafe: unknown
  try {
    isConcurrencySafe = (def as ToolDefinition).isConcurrencySafe
  } catch {
    isConcurrencySafe = undefined
  }
  return Object.freeze({
    name,
    description: description as string,
    parameters: deepFreeze((parameters as { value: JsonValue }).value),
    source: def as ToolDefinition,
    execute: execute as Function,
    render: render as Function,
    presentationMeta: presentationMeta as Function | undefined,
    validateOutput,
    finalizeContent: finalizeContent as Function | undefined,
    timeoutMs: timeoutMs as number | undefined,
    isConcurrencySafe,
  })
}

function read(owner: object, field: string, toolName: string): unknown {
  try {
    return (owner as Record<string, unknown>)[field]
  } catch (error) {
    throw new TypeError(`Tool "${toolName}": field "${field}" could not be read (${describeThrown(error)})`)
  }
}
