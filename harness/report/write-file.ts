/** Writing a file atomically (temp file + rename): an interrupted run never leaves a torn file. */
import { existsSync, statSync } from 'node:fs'
import { access, constants, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** A report or counterexample that cannot be written where the user asked: one line, exit 2. */
export class ReportWriteError extends Error {}

export async function writeAtomically(file: string, text: string): Promise<string> {
  const target = await writableTarget(file)
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`)
  try {
    await writeFile(temp, text)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined)
    throw new ReportWriteError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  return target
}

/** The file's absolute path, its folder created and writable; checked before a long run, too. */
export async function writableTarget(file: string): Promise<string> {
  const target = resolve(file)
  try {
    await makeFolders(dirname(target))
    await access(dirname(target), constants.W_OK)
  } catch (error) {
    throw new ReportWriteError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  return target
}

/** `mkdir -p` one level at a time: Node 20's recursive mkdir never returns under /proc. */
async function makeFolders(folder: string): Promise<void> {
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error(`${folder} is a file`), { code: 'ENOTDIR' })
    return
  }
  const parent = dirname(folder)
  if (parent !== folder) await makeFolders(parent)
  await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error
  })
}
