/** JSON Schema validation (ajv) for `parameters` and `output.schema`: undefined when valid, else ajv's message. */
import AjvModule, { type ValidateFunction } from 'ajv'

const Ajv = AjvModule.default ?? AjvModule
// Formats are neither generated nor checked: ajv without ajv-formats would only warn about them.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false })
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
