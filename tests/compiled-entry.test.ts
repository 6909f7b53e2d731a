// The harness runs as a bundle of its own TypeScript (harness/safe/compiled.mjs): rebuilt when a file
// it was built from changes, with every module's import.meta.url still its own source's.
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { basename, dirname, join } from 'node:path'
import { compiledEntry, isOwnSource, manifestPath } from '../harness/safe/compiled.mjs'

const CHILD = new URL('../harness/supervisor/child.ts', import.meta.url)
/** An entry only this test builds: touching what it is built from leaves the child's bundle fresh. */
const ENTRY = new URL('./bundle-entry/entry.ts', import.meta.url)
/** A build's folder is named after its manifest's name and the build. */
const manifestOf = (bundle: string) => {
  const name = basename(dirname(fileURLToPath(bundle))).replace(/\.[^.]+$/, '')
  return JSON.parse(readFileSync(manifestPath(name), 'utf8')) as { inputs: Record<string, string> }
}

it('a bundle lists what it was built from and is rebuilt when one of them changes', async () => {
  const bundle = await compiledEntry(ENTRY)
  expect(bundle).toBeTypeOf('string')
  const source = fileURLToPath(new URL('./bundle-entry/dependency.ts', import.meta.url))
  expect(Object.keys(manifestOf(bundle!).inputs)).toContain(source)
  const built = statSync(fileURLToPath(bundle!)).mtimeMs
  const { atime, mtime } = statSync(source)
  utimesSync(source, atime, new Date(mtime.getTime() + 1000))
  try {
    const rebuilt = await compiledEntry(ENTRY)
    expect(rebuilt).not.toBe(bundle)
    expect(statSync(fileURLToPath(rebuilt!)).mtimeMs).toBeGreaterThan(built)
    expect(await compiledEntry(ENTRY), 'fresh once rebuilt').toBe(rebuilt)
  } finally {
    utimesSync(source, atime, mtime)
  }
})

it('a bundled module computes paths from its own source file, not from the bundle', async () => {
  const build = dirname(fileURLToPath((await compiledEntry(CHILD))!))
  const text = readdirSync(build).map((file) => readFileSync(join(build, file), 'utf8')).join('\n')
  expect(text).not.toMatch(/import\.meta\.url/)
  expect(text).toContain(JSON.stringify(new URL('../harness/watchdog/stall-timer.ts', import.meta.url).href))
})

it('what a command imports only when it runs is a chunk of its own: certify does not load the MCP client', async () => {
  const main = fileURLToPath((await compiledEntry(new URL('../harness/cli/main.ts', import.meta.url)))!)
  expect(readFileSync(main, 'utf8')).not.toMatch(/@modelcontextprotocol/)
  const chunks = readdirSync(dirname(main)).map((file) => readFileSync(join(dirname(main), file), 'utf8'))
  expect(chunks.some((chunk) => chunk.includes('@modelcontextprotocol/sdk'))).toBe(true)
})

it('only this package\'s own TypeScript is bundled: a dependency\'s and a user\'s load through tsx', () => {
  expect(isOwnSource(new URL('../reference-impl/adapters/reference.ts', import.meta.url))).toBe(true)
  expect(isOwnSource(new URL('../node_modules/some-lib/index.ts', import.meta.url))).toBe(false)
  expect(isOwnSource(new URL('file:///elsewhere/my-adapter.ts'))).toBe(false)
  expect(isOwnSource(new URL('../fixtures/hostile/support.mjs', import.meta.url))).toBe(false)
})
