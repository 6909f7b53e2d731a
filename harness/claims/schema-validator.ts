/** JSON Schema validation (ajv) for `parameters` and `output.schema`: undefined when valid, else ajv's message. */
import { valueAjv, type ValidateFunction } from '../json-schema.js'

const ajv = valueAjv()
const cache = new Map<string, ValidateFunction>()

export type SchemaCheck = (value: unknown) => string | undefined

/** Throws when `schema` is not a schema ajv can compile. */
export function compileSchema(schema: unknown): SchemaCheck {
  const key = JSON.stringify(schema)
  let validate = cache.get(key)
  if (!validate) {
    validate = ajv.compile(typeof schema === 'object' && schema !== null ? structuredClone(schema) : (schema as boolean))
    ajv.removeSchema()
    cache.set(key, validate)
  }
  const fn = validate
  return (value) => (fn(value) ? undefined : ajv.errorsText(fn.errors, { dataVar: 'value' }))
}
