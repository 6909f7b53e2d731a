/** Checking protocol messages against their JSON Schemas (schema/), with ajv. */
import { readFileSync, readdirSync } from 'node:fs'
import AjvModule, { type ValidateFunction } from 'ajv'

const Ajv = AjvModule.default ?? AjvModule

let validator: ValidateFunction | undefined

function load(): ValidateFunction {
  const dir = new URL('./schema/', import.meta.url)
  const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true })
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) ajv.addSchema(JSON.parse(readFileSync(new URL(file, dir), 'utf8')))
  return ajv.getSchema('https://toolreg.dev/protocol/message.schema.json')!
}

/** Undefined when `message` is valid; else the first problem, as one line. */
export function validateMessage(message: unknown): string | undefined {
  validator ??= load()
  if (validator(message)) return undefined
  const error = validator.errors?.[0]
  return error ? `${error.instancePath || '/'} ${error.message ?? 'is invalid'}` : 'invalid'
}
