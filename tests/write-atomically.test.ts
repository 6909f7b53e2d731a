// A write that dies halfway (a full disk, a kill between two chunks) must leave the file it
// replaces untouched: simulated here by a writeFile that writes half its text and then fails.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, vi } from 'vitest'
import { writeAtomically } from '../harness/report/write-file.js'

const failing = vi.hoisted(() => ({ on: false }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const halfThenFail = async (path: string, text: string) => {
    if (!failing.on) return real.writeFile(path, text)
    await real.writeFile(path, text.slice(0, text.length / 2))
    throw new Error('ENOSPC: no space left on device')
  }
  return { ...real, writeFile: halfThenFail }
})

test('a write that fails halfway leaves the previous file whole and no temp file behind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-atomic-'))
  const file = join(dir, 'report.json')
  await writeFile(file, '{"previous":true}\n')
  failing.on = true
  await expect(writeAtomically(file, `${JSON.stringify({ next: 'x'.repeat(1000) })}\n`)).rejects.toThrow()
  failing.on = false
  expect(await readFile(file, 'utf8')).toBe('{"previous":true}\n')
  expect(await readdir(dir)).toEqual(['report.json'])
})

test('a write that succeeds replaces the file whole', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-atomic-'))
  const file = join(dir, 'nested/report.json')
  await writeAtomically(file, '{"next":true}\n')
  expect(await readFile(file, 'utf8')).toBe('{"next":true}\n')
  expect(await readdir(join(dir, 'nested'))).toEqual(['report.json'])
})
