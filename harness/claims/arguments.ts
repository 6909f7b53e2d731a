/**
 * A tool's arguments: generated from its `parameters`, edges first, each checked against the
 * whole schema with ajv (what the generator cannot honour is skipped, never passed on).
 */
import type fc from 'fast-check'
import type { JsonValue } from '../contract/spec.js'
import { describeThrown } from '../safe/safe-read.js'
import { ToolModuleError } from './load-tool.js'
import { ignoredKeywords, schemaArbitrary } from '../arbitraries/schema-arbitrary.js'
import { edgeInstances } from './schema-edges.js'
import { compileSchema } from './schema-validator.js'

export interface ArgumentsGenerator {
  readonly arbitrary: fc.Arbitrary<JsonValue>
  /** Valid edge instances, to run before generated cases. */
  readonly edges: readonly JsonValue[]
  readonly isValid: (args: JsonValue) => boolean
  /** Keywords of `parameters` the generator does not use (ajv still enforces them). */
  readonly ignored: readonly string[]
}

export function argumentsFor(toolName: string, parameters: unknown): ArgumentsGenerator {
  let check: (value: unknown) => string | undefined
  try {
    check = compileSchema(parameters)
  } catch (error) {
    throw new ToolModuleError(`tool "${toolName}": "parameters" is not a JSON Schema ajv can compile (${describeThrown(error)})`)
  }
  const isValid = (args: JsonValue) => check(args) === undefined
  return {
    arbitrary: schemaArbitrary(parameters),
    edges: edgeInstances(parameters).filter(isValid),
    isValid,
    ignored: ignoredKeywords(parameters),
  }
}
