/** Writing a file atomically (temp file + rename): an interrupted run never leaves a torn file. */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

export async function writeAtomically(file: string, text: string): Promise<string> {
  const target = resolve(file)
  await mkdir(dirname(target), { recursive: true })
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`
  await writeFile(temp, text)
  await rename(temp, target)
  return target
}
