// The harness runs as a bundle of its own TypeScript (harness/safe/compiled.mjs): rebuilt when a file
// it was built from changes, with every module's import.meta.url still its own source's.
import { readFileSync, statSync, utimesSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { compiledEntry, isOwnSource } from '../harness/safe/compiled.mjs'

const CHILD = new URL('../harness/supervisor/child.ts', import.meta.url)
const manifestOf = (bundle: string) => JSON.parse(readFileSync(fileURLToPath(bundle).replace(/\.mjs$/, '.json'), 'utf8')) as { inputs: Record<string, string> }

it('a bundle lists what it was built from and is rebuilt when one of them changes', async () => {
  const bundle = await compiledEntry(CHILD)
  expect(bundle).toBeTypeOf('string')
  const source = fileURLToPath(new URL('../harness/watchdog/globals.ts', import.meta.url))
  expect(Object.keys(manifestOf(bundle!).inputs)).toContain(source)
  const built = statSync(fileURLToPath(bundle!)).mtimeMs
  const { atime, mtime } = statSync(source)
  utimesSync(source, atime, new Date(mtime.getTime() + 1000))
  try {
    expect(await compiledEntry(CHILD)).toBe(bundle)
    expect(statSync(fileURLToPath(bundle!)).mtimeMs).toBeGreaterThan(built)
  } finally {
    utimesSync(source, atime, mtime)
  }
})

it('a bundled module computes paths from its own source file, not from the bundle', async () => {
  const text = readFileSync(fileURLToPath((await compiledEntry(CHILD))!), 'utf8')
  expect(text).not.toMatch(/import\.meta\.url/)
  expect(text).toContain(JSON.stringify(new URL('../harness/watchdog/stall-timer.ts', import.meta.url).href))
})

it('only this package\'s own TypeScript is bundled: a dependency\'s and a user\'s load through tsx', () => {
  expect(isOwnSource(new URL('../reference-impl/adapters/reference.ts', import.meta.url))).toBe(true)
  expect(isOwnSource(new URL('../node_modules/some-lib/index.ts', import.meta.url))).toBe(false)
  expect(isOwnSource(new URL('file:///elsewhere/my-adapter.ts'))).toBe(false)
  expect(isOwnSource(new URL('../fixtures/hostile/support.mjs', import.meta.url))).toBe(false)
})
