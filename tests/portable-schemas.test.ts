// SPEC.md "Output schemas": generators register only schemas of the portable subset, and every
// defineTool `parameters` root is an open object schema. An implementation may refuse anything
// else at registration, so a schema outside the subset would make a verdict depend on a latitude.
import AjvModule from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ANY_SCHEMA } from '../harness/arbitraries/outputs.js'
import { parametersRootProblem, portableSchemaProblem } from '../harness/arbitraries/portable-schema.js'
import { SCENARIO_PROPERTIES } from '../harness/property/scenario-property.js'
import type { ConformanceProperty } from '../harness/property/property.js'
import { SCENARIO_SCHEMA } from '../harness/scenario/scenario-schema.js'
import type { Scenario } from '../harness/scenario/types.js'
import { PROPERTIES } from '../suites/index.js'

describe('the portable schema checker', () => {
  it.each([
    [{ enum: ['a', 'b', 1] }],
    [{ const: true }],
    [{}],
    [{ type: 'string', enum: ['a', 1] }],
    [{ type: 'object', enum: [{}] }],
    [{ type: 'string', properties: {} }],
    [{ type: 'object', properties: { n: { type: 'number' } }, required: ['m'] }],
    [{ type: 'object', additionalProperties: {} }],
    [{ oneOf: [{ type: 'string' }] }],
    [{ oneOf: [{ type: 'string' }, { type: 'integer' }], type: 'string' }],
    [{ type: ['string', 'null'] }],
    [{ type: 'string', description: 'x' }],
  ])('rejects %j', (schema) => {
    expect(portableSchemaProblem(schema)).toBeDefined()
  })

  it.each([
    [ANY_SCHEMA],
    [{ type: 'string', enum: ['a', 'b'] }],
    [{ type: 'boolean', const: true }],
    [{ type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false }],
    [{ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }],
  ])('accepts %j', (schema) => {
    expect(portableSchemaProblem(schema)).toBeUndefined()
  })

  it('rejects a closed or annotated parameters root', () => {
    expect(parametersRootProblem({ type: 'object', additionalProperties: false })).toBeDefined()
    expect(parametersRootProblem({ type: 'object', title: 'args' })).toBeDefined()
    expect(parametersRootProblem({ type: 'string' })).toBeDefined()
    expect(parametersRootProblem({ type: 'object', properties: { n: { type: 'integer' } } })).toBeUndefined()
  })
})

describe('generated scenarios', () => {
  const scenarioProperties = PROPERTIES.filter((p) => SCENARIO_PROPERTIES.has(p as ConformanceProperty)) as ConformanceProperty<Scenario>[]

  it('cover the scenario-driven suites', () => {
    expect(scenarioProperties.length).toBeGreaterThan(20)
  })

  it.each(scenarioProperties.map((p) => [p.id, p] as const))('%s registers only portable schemas', (_id, property) => {
    const problems = new Set<string>()
    for (const scenario of fc.sample(property.arbitrary, { numRuns: 150, seed: 20261201 })) {
      if (!('version' in scenario)) continue // a direct case of withDirect: no scenario tools
      for (const tool of scenario.tools) {
        const output = portableSchemaProblem(tool.outputSchema)
        if (output) problems.add(`${tool.name} output ${JSON.stringify(tool.outputSchema)}: ${output}`)
        const parameters = tool.define ? parametersRootProblem(tool.parameters) : undefined
        if (parameters) problems.add(`${tool.name} parameters ${JSON.stringify(tool.parameters)}: ${parameters}`)
      }
    }
    expect([...problems]).toEqual([])
  })

  // Hostile hooks extend the scenario model: every generated case must still be a valid replay file.
  const Ajv = AjvModule.default ?? AjvModule
  const validate = new Ajv({ strict: false, allErrors: false }).compile(SCENARIO_SCHEMA)
  it.each(scenarioProperties.map((p) => [p.id, p] as const))('%s generates scenarios that validate as replay files', (_id, property) => {
    const invalid: string[] = []
    for (const scenario of fc.sample(property.arbitrary, { numRuns: 100, seed: 20261202 })) {
      if (!('version' in scenario)) continue
      if (!validate(JSON.parse(JSON.stringify(scenario)))) invalid.push(JSON.stringify(validate.errors?.[0]))
    }
    expect(invalid.slice(0, 3)).toEqual([])
  })
})

describe('a refused registration', () => {
  it('costs only its own case: a harness error naming the tool and schema, never a verdict', async () => {
    const { checkProperty } = await import('../harness/engine/check-property.js')
    const { judged } = await import('../harness/property/scenario-property.js')
    const { scenario, quiet } = await import('../harness/arbitraries/scenario.js')
    const { plainTool } = await import('../harness/arbitraries/tools.js')
    const variant = (await import('../fixtures/variants/portable-schemas-only.js')).default
    const tools = fc.boolean().map((odd) => [{ ...plainTool(), ...(odd ? { outputSchema: { enum: ['a', 'b', 1] } } : {}) }])
    const property = judged('OUT-1', 'probe', scenario({ ...quiet, tools }))
    const verdict = await checkProperty(property, variant, { runs: 30, seed: 7, shrink: false })
    expect(verdict.status).toBe('passed')
    const refused = verdict.status === 'passed' ? (verdict.refused ?? []) : []
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]).toMatch(/^register\(read_file\) refused the tool \(output schema \{"enum":\["a","b",1\]\}/)
  })
})
