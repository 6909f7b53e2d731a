// The draft-07 meta-schema's precompiled validator (generate-meta-validator.mjs writes its code).
import type { ValidateFunction } from 'ajv'

declare const validate: ValidateFunction
export default validate
