// The supervisor (`toolreg certify`'s own process) never loads the implementation: nothing it
// imports, type-only imports included, reaches an adapter, the reference implementation, the
// suites, or the child's entry. The child is started by path (supervisor/supervised-child.ts).
import { describe, expect, it } from 'vitest'
import { importGraph } from './import-graph.js'

function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of graph.get(file) ?? []) visit(next)
  }
  visit(from)
  return seen
}

describe('the supervisor\'s imports', () => {
  it('reach no implementation code, no suite and not the child', () => {
    const files = [...reachable(importGraph(), 'harness/cli/certify.ts')]
    expect(files.filter((f) => /^(reference-impl|fixtures|suites)\//.test(f) || f === 'harness/supervisor/child.ts')).toEqual([])
  })
})
