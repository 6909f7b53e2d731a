/** Writing a file atomically (temp file + rename): an interrupted run never leaves a torn file. */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

export async function writeAtomically(file: string, text: string): Promise<string> {
  const target = resolve(file)
  await mkdir(dirname(target), { recursive: true })
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`)
  try {
    await writeFile(temp, text)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  return target
}
