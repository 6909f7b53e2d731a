// No file imports itself through others: the folders read as floors only if no arrow loops back.
import { describe, expect, it } from 'vitest'
import { cycles, importGraph } from './import-graph.js'

describe('the import graph', () => {
  it('has no cycles among the project files (type-only imports included)', () => {
    expect(cycles(importGraph())).toEqual([])
  })

  it('finds a cycle where there is one', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]])
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })
})
