/**
 * The portable output-schema subset of SPEC.md ("Output schemas"), as a checker: generators
 * register only schemas it accepts, and the `portable-schemas-only` variant refuses the rest.
 */

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])
const STRUCTURAL = new Set(['object', 'array'])
const OBJECT_KEYS = new Set(['properties', 'required', 'additionalProperties'])

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)

/** Whether a JSON value has the scalar `type` (for `enum` and `const`). */
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return value === null
  }
}

/** Why `schema` is outside the portable subset (at which path), or undefined when it is inside. */
export function portableSchemaProblem(schema: unknown, path = '#'): string | undefined {
  if (!isPlainObject(schema)) return `${path} is not a schema object`
  const keys = Object.keys(schema)
  if (keys.length === 1 && keys[0] === 'oneOf') {
    const branches = schema.oneOf
    if (!Array.isArray(branches) || branches.length < 2) return `${path}: oneOf needs two or more branches`
    for (let i = 0; i < branches.length; i++) {
      const problem = portableSchemaProblem(branches[i], `${path}/oneOf/${i}`)
      if (problem) return problem
    }
    return undefined
  }
  const type = schema.type
  if (typeof type !== 'string' || !(SCALARS.has(type) || STRUCTURAL.has(type))) return `${path} has no single scalar or structural type`
  for (const key of keys) {
    if (key === 'type') continue
    if (key === 'enum') {
      const values = schema.enum
      if (!SCALARS.has(type)) return `${path}: enum beside type ${type}`
      if (!Array.isArray(values) || values.length === 0) return `${path}: enum is not a non-empty array`
      if (!values.every((v) => hasType(v, type))) return `${path}: an enum value is not of type ${type}`
    } else if (key === 'const') {
      if (!SCALARS.has(type) || !hasType(schema.const, type)) return `${path}: const is not a value of scalar type ${type}`
    } else if (OBJECT_KEYS.has(key)) {
      if (type !== 'object') return `${path}: ${key} beside type ${type}`
    } else if (key === 'items') {
      if (type !== 'array') return `${path}: items beside type ${type}`
      const problem = portableSchemaProblem(schema.items, `${path}/items`)
      if (problem) return problem
    } else {
      return `${path}: keyword ${key} is outside the portable subset`
    }
  }
  if (type === 'object') return objectProblem(schema, path)
  return undefined
}

function objectProblem(schema: Record<string, unknown>, path: string): string | undefined {
  const { properties, required, additionalProperties } = schema
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean') return `${path}: additionalProperties is not a boolean`
  if (properties !== undefined) {
    if (!isPlainObject(properties)) return `${path}: properties is not an object`
    for (const [name, sub] of Object.entries(properties)) {
      const problem = portableSchemaProblem(sub, `${path}/properties/${name}`)
      if (problem) return problem
    }
  }
  if (required !== undefined) {
    const declared = isPlainObject(properties) ? Object.keys(properties) : []
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && declared.includes(r))) {
      return `${path}: required names a property that is not declared`
    }
  }
  return undefined
}

/** Why a defineTool `parameters` root is not an open, portable object schema (or undefined). */
export function parametersRootProblem(schema: unknown): string | undefined {
  const problem = portableSchemaProblem(schema)
  if (problem) return problem
  const root = schema as Record<string, unknown>
  if (root.type !== 'object') return '# is not an object schema'
  if (root.additionalProperties === false) return '#: additionalProperties false at the root'
  return undefined
}
