/**
 * The run's sandbox: a fresh temporary directory holding two small text files, which `{sandbox}`
 * in the server command stands for. Their access time lies in the future, so that reading them
 * does not change it (relatime) and a read-only tool that reports it reports the same each time.
 */
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Sandbox {
  /** The directory `{sandbox}` stands for. */
  readonly dir: string
  /** Where the checker keeps its own files (the pristine copy of the state), outside `dir`. */
  readonly keepDir: string
  dispose(): Promise<void>
}

export const SEED_FILES: Readonly<Record<string, string>> = {
  'notes.txt': 'first line\nsecond line\n',
  'sub/inner.txt': 'inner\n',
}

const MODIFIED = new Date('2020-01-01T00:00:00Z')
const TWO_DAYS_MS = 2 * 24 * 3600 * 1000

export async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'toolreg-mcp-')))
  const dir = join(root, 'sandbox')
  const keepDir = join(root, 'toolreg')
  await mkdir(keepDir)
  const accessed = new Date(Date.now() + TWO_DAYS_MS)
  for (const [name, text] of Object.entries(SEED_FILES)) {
    const file = join(dir, name)
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, text)
    await utimes(file, accessed, MODIFIED)
  }
  return { dir, keepDir, dispose: () => rm(root, { recursive: true, force: true }) }
}
