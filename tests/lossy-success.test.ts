// A body value JSON cannot hold, published as a success: OUT-1's failure where the layer validates
// output (the rule it breaks first), META-2's where it has no such seam — one fault, one verdict.
import { describe, expect, it } from 'vitest'
import type { ConformanceAdapter, RegistryUnderTest } from '../harness/contract/adapter.js'
import { SEAMS } from '../harness/contract/seam-names.js'
import { runJudged } from '../harness/property/scenario-property.js'
import { withPatch } from '../fixtures/mutants/support.js'
import { scenarioOf, tool } from './oracle-example-traces.js'

/** The reference, publishing a refused output as the success "[object Object]", as a layer that stringifies. */
const stringifies = withPatch('stringifies-lossy-output', (registry): RegistryUnderTest => ({
  ...registry,
  async execute(input) {
    const result = await registry.execute(input)
    if (!result.isError || result.error.code !== 'INVALID_TOOL_OUTPUT') return result
    return Object.freeze({ isError: false as const, value: '[object Object]', content: [{ type: 'text' as const, text: '[object Object]' }] })
  },
}))
const withoutValidation: ConformanceAdapter = { ...stringifies, seams: SEAMS.filter((s) => s !== 'output-validation') }

const bigint = scenarioOf({ tools: [tool({ body: { steps: [], outcome: { kind: 'return', value: { a: { $: 'bigint' } } } } })] })
const clausesOf = async (adapter: ConformanceAdapter) => (await runJudged(adapter, bigint)).violations.map((v) => v.clause)

describe('a lossy success', () => {
  it('OUT-1 where the layer validates output; no META-2 echo', async () => {
    const clauses = await clausesOf(stringifies)
    expect(clauses).toContain('OUT-1')
    expect(clauses).not.toContain('META-2')
  })

  it('META-2 where the layer declares no output-validation seam', async () => {
    expect(await clausesOf(withoutValidation)).toContain('META-2')
  })
})
