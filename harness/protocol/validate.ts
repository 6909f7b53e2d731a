/** Checking protocol messages against their JSON Schemas (schema/), with ajv. */
import { readFileSync, readdirSync } from 'node:fs'
import { protocolAjv, type ValidateFunction } from '../json-schema.js'


let validator: ValidateFunction | undefined

function load(): ValidateFunction {
  const dir = new URL('./schema/', import.meta.url)
  const ajv = protocolAjv()
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
