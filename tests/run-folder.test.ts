// Stale temporary folders are swept (issue 24): a run folder whose supervisor is gone, and a folder
// of the older one-per-child layout past a day; a live supervisor's folder and a recent legacy one stay.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { sweepStaleRunFolders } from '../harness/supervisor/run-folder.js'

const root = mkdtempSync(join(tmpdir(), 'toolreg-sweep-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('the run folders of dead supervisors and legacy folders over a day old are removed; the rest stays', () => {
  const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }))
  const folders = [`toolreg-child-${dead}-aB3dE9`, `toolreg-child-${process.pid}-Zz9Yy8`, 'toolreg-child-oldOld', 'toolreg-child-newNew', 'toolreg-other']
  for (const name of folders) mkdirSync(join(root, name, '123'), { recursive: true })
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
  utimesSync(join(root, 'toolreg-child-oldOld'), twoDaysAgo, twoDaysAgo)
  sweepStaleRunFolders(root)
  expect(readdirSync(root).sort()).toEqual([`toolreg-child-${process.pid}-Zz9Yy8`, 'toolreg-child-newNew', 'toolreg-other'].sort())
})
