/**
 * JSON Schema validation with ajv, compiled once per distinct schema (OUT-1, DEF-5).
 * Compiled validators are cached by the schema's JSON text, so registering the same schema again
 * costs a map lookup and ajv's own cache does not grow with every registration. A schema is
 * checked against the draft-07 meta-schema by its precompiled validator
 * (generate-meta-validator.mjs); one naming another meta-schema is left to ajv, as before.
 */
import AjvModule, { type ValidateFunction } from 'ajv'
import type { JsonValue } from '../../harness/contract/spec.js'
import validateDraft07 from './meta-validator.generated.js'

const Ajv = AjvModule.default ?? AjvModule
// ownProperties: a JSON object holds its own keys only; `required: ['constructor']` is not met by what {} inherits.
const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false, ownProperties: true })
const compiled = new Map<string, ValidateFunction>()
const CACHE_LIMIT = 2000
const DRAFT_07 = new Set([undefined, 'http://json-schema.org/draft-07/schema', 'http://json-schema.org/draft-07/schema#'])

export type Validator = (value: JsonValue) => string | undefined

/** Throws, as ajv's own check does, when `schema` is not valid against its meta-schema. */
function checkSchema(schema: JsonValue): void {
  if (typeof schema !== 'object' || schema === null) return
  const declared = (schema as { $schema?: unknown }).$schema
  if (!DRAFT_07.has(declared as string | undefined)) ajv.validateSchema(schema, true)
  else if (!validateDraft07(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validateDraft07.errors)}`)
}

/** Throws when `schema` is not a schema ajv can compile. */
export function compileValidator(schema: JsonValue): Validator {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) {
    checkSchema(schema)
    validate = ajv.compile(typeof schema === 'object' && schema !== null ? structuredClone(schema) : (schema as boolean))
    ajv.removeSchema()
    if (compiled.size >= CACHE_LIMIT) compiled.clear()
    compiled.set(key, validate)
  }
  const fn = validate
  return (value) => (fn(value) ? undefined : ajv.errorsText(fn.errors))
}
