// The folders are floors, the contract at the ground: a file imports its own floor or one below,
// never one above. Beside import-cycles.test.ts, over the same import graph (type-only imports included).
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { importGraph } from './import-graph.js'

interface Floor {
  readonly floor: string
  /** Folders (ending in /), files, or file-name prefixes (harness/report/write). */
  readonly paths: readonly string[]
}

/**
 * Ground first. A file stands on the floor of the longest path in this table that holds it. A new
 * folder gets a row (or joins one); a file filed in a folder of another floor is listed on its own.
 */
export const FLOORS: readonly Floor[] = [
  { floor: 'contract', paths: ['harness/contract/'] },
  { floor: 'reference', paths: ['reference-impl/'] },
  // Leaves any floor may use: each imports nothing of the project but the contract and each other.
  { floor: 'leaves', paths: ['harness/json-schema.ts', 'harness/safe/', 'harness/report/write-file.ts'] },
  { floor: 'scenario', paths: ['harness/scenario/'] },
  { floor: 'arbitraries', paths: ['harness/arbitraries/'] },
  { floor: 'oracle', paths: ['harness/oracle/', 'harness/seams.ts', 'harness/fit-scenario.ts'] },
  { floor: 'protocol', paths: ['harness/protocol/'] },
  { floor: 'property language', paths: ['harness/property/'] },
  { floor: 'watchdog', paths: ['harness/watchdog/'] },
  { floor: 'persistence', paths: ['harness/store/'] },
  { floor: 'engine', paths: ['harness/engine/'] },
  { floor: 'suites', paths: ['suites/'] },
  // What runs the suites: the supervisor and its children, and the vitest glue for a user's own vitest.
  { floor: 'hosts', paths: ['harness/supervisor/', 'harness/in-vitest/', 'harness/vitest.ts', 'harness/vitest.mjs'] },
  { floor: 'report', paths: ['harness/report/'] },
  { floor: 'claims', paths: ['harness/claims/'] },
  { floor: 'mutation', paths: ['harness/mutation/'] },
  { floor: 'entry points', paths: ['harness/cli/', 'harness/bench/', 'harness/index.ts', 'harness/index.mjs', 'harness/types/'] },
  { floor: 'fixtures', paths: ['fixtures/'] },
]

/**
 * Upward imports known today, each `importer -> imported`. The list may only shrink: an entry that no
 * longer points up fails the test too, so it is deleted when the import is fixed.
 */
export const KNOWN_UPWARD_IMPORTS: Readonly<Record<string, string>> = {}

/** The floor of a file: the row of the longest path that holds it; -1 when no row does. */
export function floorOf(file: string, floors: readonly Floor[] = FLOORS): number {
  let best = -1
  let length = -1
  floors.forEach((row, index) => {
    for (const path of row.paths) {
      const holds = path.endsWith('/') || !/\.[a-z]+$/.test(path) ? file.startsWith(path) : file === path
      if (holds && path.length > length) [best, length] = [index, path.length]
    }
  })
  return best
}

/** Every import that points to a higher floor, as `importer (floor) -> imported (floor)`. */
export function upwardImports(graph: Map<string, string[]>, floors: readonly Floor[] = FLOORS): string[] {
  const out: string[] = []
  for (const [from, deps] of graph) {
    const low = floorOf(from, floors)
    for (const to of deps) {
      const high = floorOf(to, floors)
      if (high > low) out.push(`${from} (${floors[low]?.floor}) -> ${to} (${floors[high]?.floor})`)
    }
  }
  return out.sort()
}

const pair = (line: string) => line.replace(/ \([^)]*\)/g, '')

describe('the floors', () => {
  const graph = importGraph()

  it('give every project file a floor', () => {
    expect([...graph.keys()].filter((file) => floorOf(file) < 0)).toEqual([])
  })

  it('name only paths that exist', () => {
    const paths = FLOORS.flatMap((row) => row.paths)
    const files = [...graph.keys()]
    expect(paths.filter((path) => !existsSync(path) && !files.some((file) => file.startsWith(path)))).toEqual([])
  })

  it('have no import pointing up, beyond the known ones', () => {
    const offending = upwardImports(graph).filter((line) => !(pair(line) in KNOWN_UPWARD_IMPORTS))
    expect(offending).toEqual([])
  })

  it('keep the known upward imports list to imports that still point up', () => {
    const upward = new Set(upwardImports(graph).map(pair))
    expect(Object.keys(KNOWN_UPWARD_IMPORTS).filter((entry) => !upward.has(entry))).toEqual([])
  })

  it('let suites/ import no harness code but the contract and the property language', () => {
    const suites = [...graph.entries()].filter(([file]) => file.startsWith('suites/'))
    const reached = suites.flatMap(([file, imports]) => imports.map((target) => `${file} -> ${target}`))
    const outside = reached.filter((line) => /-> harness\//.test(line) && !/-> harness\/(contract|property)\//.test(line))
    expect(outside).toEqual([])
  })

  it('find an upward import where there is one', () => {
    const floors = [
      { floor: 'ground', paths: ['a/'] },
      { floor: 'top', paths: ['b/'] },
    ]
    const graph = new Map([['a/x.ts', ['b/y.ts', 'a/z.ts']], ['b/y.ts', ['a/x.ts']]])
    expect(upwardImports(graph, floors)).toEqual(['a/x.ts (ground) -> b/y.ts (top)'])
  })
})
