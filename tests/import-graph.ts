/**
 * The project's import graph, read with TypeScript's own pre-processor (no type checking): each
 * source file and the project files it imports. Used by the architecture tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

export const ROOTS = ['harness', 'reference-impl', 'suites', 'fixtures']
const SOURCE = /\.(ts|mts|mjs)$/

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name.startsWith('.')) return []
    return statSync(path).isDirectory() ? files(path) : SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')]
  return candidates.find((c) => {
    try {
      return statSync(c).isFile()
    } catch {
      return false
    }
  })
}

/** file (relative to the repo) → the project files it imports (type-only imports included). */
export function importGraph(root = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of ROOTS.flatMap((dir) => files(join(root, dir)))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const deps = info.importedFiles.map((f) => target(file, f.fileName)).filter((t): t is string => t !== undefined)
    graph.set(relative(root, file), [...new Set(deps.map((d) => relative(root, d)))])
  }
  return graph
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const indexes = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (node: string) => {
    indexes.set(node, index)
    low.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!indexes.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexes.get(next)!))
    }
    if (low.get(node) === indexes.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!indexes.has(node)) visit(node)
  return out
}
