/**
 * The oracle's own JSON Schema check (ajv), independent of any implementation's validator. Its
 * schemas are the generators' (arbitraries/outputs.ts), so they are not checked again here.
 */
import { valueAjv, type ValidateFunction } from '../json-schema.js'

const ajv = valueAjv({ checkSchemas: false })
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
