/**
 * The harness's one ajv set-up. Three uses, three option sets, named for what they check:
 * toolreg's own files (reports, counterexamples, baselines, case files), the wire protocol's
 * messages (our schemas, checked strictly), and tools' output and parameter schemas (schemas
 * someone else wrote; formats neither generated nor checked).
 */
import AjvModule, { type ValidateFunction } from 'ajv'

const Ajv = AjvModule.default ?? AjvModule
export type { ValidateFunction }
export type AjvInstance = InstanceType<typeof Ajv>

/** A validator that compiles its schema on its first use, with that use's errors. */
export interface DocumentValidator {
  (data: unknown): boolean
  errors?: ValidateFunction['errors']
}

/**
 * Files toolreg writes and reads back: the first error is enough to name the bad field. Compiled
 * when first used: a certify run that reads no baseline and no case file compiles neither. The
 * schemas are toolreg's own, checked against the meta-schema by a test
 * (tests/document-schemas.test.ts), not in every process: compiling the meta-schema cost each
 * certify 30 ms.
 */
export function documentValidator(schema: object): DocumentValidator {
  let compiled: ValidateFunction | undefined
  const validate: DocumentValidator = (data) => {
    compiled ??= new Ajv({ strict: false, allErrors: false, validateSchema: false }).compile(schema)
    const valid = compiled(data)
    validate.errors = compiled.errors
    return valid
  }
  return validate
}

/** Protocol messages: every schema under protocol/schema/, strict about the schemas themselves. */
export function protocolAjv(): AjvInstance {
  return new Ajv({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true })
}

/**
 * Schemas a tool declares, applied to its values (ajv without ajv-formats would only warn on
 * formats). `checkSchemas: false` where the schemas are toolreg's own, drawn from the portable
 * subset a test checks (tests/portable-schemas.test.ts): compiling the meta-schema to check them
 * cost every child some 20 ms of CPU.
 */
export function valueAjv({ checkSchemas = true } = {}): AjvInstance {
  // ownProperties: a JSON object holds its own keys only; `required: ['constructor']` is not met by what {} inherits.
  return new Ajv({ strict: false, validateFormats: false, allErrors: false, validateSchema: checkSchemas, ownProperties: true })
}

/** The first error of a failed validation, as "<path> <message>". */
export function firstSchemaError(errors: { instancePath: string; message?: string }[] | null | undefined): string {
  const e = errors?.[0]
  if (!e) return 'invalid'
  return `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`
}
