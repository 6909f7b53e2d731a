// The committed draft-07 meta validator is what the installed ajv generates, and the reference
// rejects a schema the meta-schema rejects, by either path (DEF-5).
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { compileValidator } from '../json/schema-validator.js'

describe('the precompiled draft-07 meta validator', () => {
  it('is what the installed ajv generates (generate-meta-validator.mjs --check)', () => {
    expect(() => execFileSync(process.execPath, ['reference-impl/json/generate-meta-validator.mjs', '--check'], { stdio: 'pipe' })).not.toThrow()
  })

  it('DEF-5: a schema invalid against draft-07 is refused, declared or not; one naming an unknown meta-schema too', () => {
    expect(() => compileValidator({ type: 'nope' })).toThrow()
    expect(() => compileValidator({ $schema: 'http://json-schema.org/draft-07/schema#', minLength: -1 })).toThrow()
    expect(() => compileValidator({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' })).toThrow()
    expect(() => compileValidator({ $schema: 5 as never, type: 'string' })).toThrow()
    expect(compileValidator({ type: 'string', minLength: 1 })('')).toBeDefined()
    expect(compileValidator({ $schema: 'http://json-schema.org/draft-07/schema', type: 'string' })('a')).toBeUndefined()
    expect(compileValidator(true)(null)).toBeUndefined()
  })
})
