// A vitest global setup that builds, before any test starts, the bundles of toolreg's own entry
// points (harness/safe/compiled.mjs) that the tests' processes load: the command, the child, the
// fixtures and the shipped adapters they certify. Built here, in one process with one esbuild
// service, they cost a fraction of what some 80 first uses did on a fresh clone, each process
// loading esbuild and starting its service (and some building the same entry side by side).
// What is already fresh is only checked. A bundle left out is still built on first use.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compiledEntry } from '../harness/safe/compiled.mjs'

const ENTRIES = [
  'harness/cli/main.ts',
  'harness/supervisor/child.ts',
  'harness/index.ts',
  'harness/vitest.ts',
  'reference-impl/test/sandbox-host-child.ts',
  'tests/close-then-exit.ts',
]
/** Folders whose modules are entries (an adapter, a server), but for the modules they share. */
const ENTRY_FOLDERS = ['fixtures/hostile', 'fixtures/mcp/honest', 'fixtures/mcp/lying', 'fixtures/remote', 'fixtures/adapters', 'reference-impl/adapters']
const SHARED = new Set(['support.ts', 'adapter.ts', 'index.ts', 'peer-registry.ts'])

function entriesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !SHARED.has(path.split('/').at(-1)!))
    .map((path) => join(folder, path))
}

export async function setup(): Promise<void> {
  const entries = [...ENTRIES, ...ENTRY_FOLDERS.flatMap(entriesUnder)]
  await Promise.all(entries.map((entry) => compiledEntry(pathToFileURL(entry))))
  const { stop } = await import('esbuild')
  await stop()
}
