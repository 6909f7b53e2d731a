// Files the implementation's process can reach are read and written without blocking (issue 24):
// a FIFO, a symbolic link or an oversized file is no record, and opening them returns at once.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readUntrusted, writeUntrusted } from '../harness/safe/untrusted-file.mjs'

const dir = mkdtempSync(join(tmpdir(), 'toolreg-untrusted-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a regular file within the cap is read and written; a FIFO, a link or a file past the cap is not, and nothing blocks', () => {
  const [plain, fifo, link, big] = ['plain.json', 'fifo.json', 'link.json', 'big.json'].map((name) => join(dir, name)) as [string, string, string, string]
  expect(writeUntrusted(plain, '{"a":1}')).toBe(true)
  expect(readUntrusted(plain, 100)).toBe('{"a":1}')
  execFileSync('mkfifo', [fifo])
  symlinkSync(plain, link)
  writeFileSync(big, 'x'.repeat(101))
  expect([readUntrusted(fifo, 100), readUntrusted(link, 100), readUntrusted(big, 100)]).toEqual([undefined, undefined, undefined])
  expect([writeUntrusted(fifo, 'x'), writeUntrusted(link, 'x')]).toEqual([false, false])
  expect(readUntrusted(plain, 100), 'the link\'s target is untouched').toBe('{"a":1}')
})
