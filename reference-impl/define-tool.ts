/**
 * `defineTool`: argument validation as a definition helper. Honours DEF-5: a call whose arguments
 * violate `parameters` ends as INVALID_ARGS before the author's body runs, and the classifier
 * answers exclusive for such arguments. The validator is compiled once, here.
 */
import type { JsonValue, ToolDefinition, ToolRunContext } from '../harness/contract/spec.js'
import { describeThrown, snapshotJson } from './json/lossless.js'
import { compileValidator, type Validator } from './json/schema-validator.js'

export function defineTool(def: ToolDefinition): ToolDefinition {
  const name = typeof def?.name === 'string' ? def.name : '(unnamed)'
  const parameters = snapshotJson(def?.parameters)
  if (!parameters.ok) throw new TypeError(`Tool "${name}": field "parameters" must be lossless JSON`)
  let validate: Validator
  try {
    validate = compileValidator(parameters.value)
  } catch (error) {
    throw new TypeError(`Tool "${name}": field "parameters" is not a valid JSON Schema (${describeThrown(error)})`)
  }
  const body = def.execute
  const classify = def.isConcurrencySafe
  const defined: ToolDefinition = {
    ...def,
    execute(args: JsonValue, exec: ToolRunContext) {
      const invalid = validate(args)
      if (invalid !== undefined) {
        return Promise.reject(Object.assign(new Error(`Invalid arguments: ${invalid}`), { code: 'INVALID_ARGS' }))
      }
      return body.call(def, args, exec)
    },
  }
  if (typeof classify === 'function') {
    defined.isConcurrencySafe = (args: JsonValue) => validate(args) === undefined && classify.call(def, args) === true
  } else {
    delete defined.isConcurrencySafe
  }
  return defined
}
