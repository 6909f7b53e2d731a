/**
 * JSON Schema validation with ajv, compiled once per distinct schema (OUT-1, DEF-5).
 * Compiled validators are cached by the schema's JSON text, so registering the same schema again
 * costs a map lookup and ajv's own cache does not grow with every registration.
 */
import AjvModule, { type ValidateFunction } from 'ajv'
import type { JsonValue } from '../../harness/contract/spec.js'

const Ajv = AjvModule.default ?? AjvModule
const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: true })
const compiled = new Map<string, ValidateFunction>()
const CACHE_LIMIT = 2000

export type Validator = (value: JsonValue) => string | undefined

/** Throws when `schema` is not a schema ajv can compile. */
export function compileValidator(schema: JsonValue): Validator {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) {
    validate = ajv.compile(typeof schema === 'object' && schema !== null ? structuredClone(schema) : (schema as boolean))
    ajv.removeSchema()
    if (compiled.size >= CACHE_LIMIT) compiled.clear()
    compiled.set(key, validate)
  }
  const fn = validate
  return (value) => (fn(value) ? undefined : ajv.errorsText(fn.errors))
}
