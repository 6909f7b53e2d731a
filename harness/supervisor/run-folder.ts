/**
 * The one temporary folder of a certification run: each child's watchdog files go in a folder of
 * its own inside it (named by the child's pid). It is removed when the run ends, on a signal too;
 * a run that could not remove it (SIGKILL) leaves it to its children, which remove their dead
 * supervisor's run folders as they end (safe/process-tree.mjs), and to the next run, which
 * removes every run folder whose supervisor is no longer alive.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RUN_FOLDER_PREFIX as PREFIX } from '../safe/process-tree.mjs'

/** A run folder: the supervisor's pid, then mkdtemp's suffix. */
const RUN_FOLDER = /^toolreg-child-(\d+)-[A-Za-z0-9]{6}$/
/** A folder of the layout before run folders (one per child, no owner): stale once this old. */
const LEGACY_FOLDER = /^toolreg-child-[A-Za-z0-9]{6}$/
const LEGACY_STALE_MS = 24 * 60 * 60 * 1000

export function makeRunFolder(): string {
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`))
}

/** Never throws: a child's watchdog thread may write into it meanwhile (retried), and what is left the next run sweeps. */
export function removeRunFolder(dir: string): void {
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS && existsSync(dir); attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true })
    } catch {
      // ENOTEMPTY: a file written meanwhile; looked at again
    }
  }
}

const REMOVE_ATTEMPTS = 20

/** Removes the run folders (in `root`) of supervisors that are gone, and legacy child folders older than a day. */
export function sweepStaleRunFolders(root = tmpdir(), now = Date.now()): void {
  let names: string[]
  try {
    names = readdirSync(root).filter((name) => name.startsWith(PREFIX))
  } catch {
    return
  }
  for (const name of names) {
    const owner = RUN_FOLDER.exec(name)?.[1]
    const stale = owner !== undefined ? !alive(Number(owner)) : LEGACY_FOLDER.test(name) && olderThan(join(root, name), now - LEGACY_STALE_MS)
    if (stale) removeRunFolder(join(root, name))
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // alive, another user's
  }
}

function olderThan(path: string, before: number): boolean {
  try {
    return statSync(path).mtimeMs < before
  } catch {
    return false
  }
}
