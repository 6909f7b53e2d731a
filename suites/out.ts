/** OUT: the canonical output. */
import fc from 'fast-check'
import { invalidOutput } from '../harness/arbitraries/outputs.js'
import { quiet, scenario } from '../harness/arbitraries/scenario.js'
import { projection, tool } from '../harness/arbitraries/tools.js'
import { judged } from '../harness/runner/scenario-property.js'
import type { ToolSpec } from '../harness/scenario/types.js'

const one = (arb: fc.Arbitrary<ToolSpec>) => fc.array(arb, { minLength: 1, maxLength: 1 })
const invalidValueTool = fc.tuple(tool(), invalidOutput).map(([t, o]): ToolSpec => ({ ...t, outputSchema: o.schema, body: { steps: t.body.steps, outcome: { kind: 'return', value: o.value } } }))
const projectingTool = fc.tuple(tool(), projection(true), projection(false)).map(([t, render, meta]): ToolSpec => ({ ...t, render, meta, body: { steps: [], outcome: { kind: 'return', value: 1 } }, outputSchema: {} }))
const throwingTool = tool().map((t): ToolSpec => ({ ...t, body: { steps: t.body.steps, outcome: t.body.outcome.kind === 'return' ? { kind: 'throw', thrown: { $: 'error' } } : t.body.outcome } }))
const codedTool = fc.tuple(tool(), fc.constantFrom('E_TOOL', 'ENOENT', 'RATE_LIMITED')).map(([t, code]): ToolSpec => ({ ...t, body: { steps: t.body.steps, outcome: { kind: 'throw', thrown: { $: 'error', code } } } }))

export default [
  judged('OUT-1', 'a value that is not lossless JSON or fails output.schema is INVALID_TOOL_OUTPUT, never a success', scenario({ ...quiet, tools: one(invalidValueTool), calls: { max: 2 } })),
  judged('OUT-2', 'content and meta are the output\'s projections; one that throws or returns non-lossless JSON is INVALID_TOOL_OUTPUT', scenario({ ...quiet, tools: one(projectingTool), calls: { max: 2 } })),
  judged('OUT-3', 'a body that throws becomes an error outcome whose content is model-readable text', scenario({ ...quiet, tools: one(throwingTool) })),
  judged('OUT-4', 'a thrown value\'s own string code is kept as the outcome\'s error code', scenario({ ...quiet, tools: one(codedTool) })),
]
