/** The oracle's own JSON Schema check (ajv), independent of any implementation's validator. */
import AjvModule, { type ValidateFunction } from 'ajv'

const Ajv = AjvModule.default ?? AjvModule
const ajv = new Ajv({ strict: false })
const cache = new Map<string, ValidateFunction>()

export function matchesSchema(schema: unknown, value: unknown): boolean {
  const key = JSON.stringify(schema)
  let validate = cache.get(key)
  if (!validate) {
    validate = ajv.compile(schema as object)
    ajv.removeSchema()
    cache.set(key, validate)
  }
  return validate(value) === true
}
