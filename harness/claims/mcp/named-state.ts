/**
 * The server's named state: a file or a directory the checker reads as JSON between calls, and
 * puts back the way it was before every trial. Only what differs is rewritten, so files a trial
 * left alone keep their inode and times (a read-only tool that reports them reports the same).
 */
import { cp, lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { JsonValue } from '../../contract/spec.js'

export interface NamedState {
  readonly path: string
  /** The state as JSON: null when the path does not exist. */
  read(): Promise<JsonValue>
  /** Puts the path back as it was when the state was named. */
  restore(): Promise<void>
}

/** Remembers `path` as it is now (copied under `keepDir`): the pristine state every trial starts from. */
export async function nameState(path: string, keepDir: string): Promise<NamedState> {
  const pristine = join(keepDir, 'pristine')
  const exists = await kind(path)
  if (exists) await cp(path, pristine, { recursive: true, preserveTimestamps: true })
  return {
    path,
    read: () => readState(path),
    restore: () => (exists ? mirror(pristine, path) : rm(path, { recursive: true, force: true })),
  }
}

async function kind(path: string): Promise<'file' | 'dir' | undefined> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'file'
  } catch {
    return undefined
  }
}

export async function readState(path: string): Promise<JsonValue> {
  const k = await kind(path)
  if (k === undefined) return null
  if (k === 'file') return parseFile(path, await readFile(path, 'utf8'))
  const out: { [relativePath: string]: JsonValue } = {}
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name)
      const key = relative(path, full)
      if (entry.isDirectory()) {
        out[`${key}/`] = true
        await walk(full)
      } else {
        out[key] = await readFile(full, 'utf8').catch(() => null)
      }
    }
  }
  await walk(path)
  return out
}

/** JSON files as their value, JSON-lines files as the array of their lines' values, any other file as its text. */
function parseFile(path: string, text: string): JsonValue {
  const parse = (s: string): JsonValue => {
    try {
      return JSON.parse(s) as JsonValue
    } catch {
      return s
    }
  }
  if (path.endsWith('.jsonl')) return text.split('\n').filter((line) => line.trim() !== '').map(parse)
  if (path.endsWith('.json')) return parse(text)
  return text
}

/** Makes `target` hold exactly what `source` holds, rewriting only what differs. */
async function mirror(source: string, target: string): Promise<void> {
  const [from, to] = await Promise.all([kind(source), kind(target)])
  if (from === 'file') {
    if (to === 'file' && (await sameBytes(source, target))) return
    await rm(target, { recursive: true, force: true })
    await cp(source, target, { preserveTimestamps: true })
    return
  }
  if (to !== 'dir') {
    await rm(target, { recursive: true, force: true })
    await mkdir(target)
  }
  const wanted = new Set(await readdir(source))
  for (const name of await readdir(target)) if (!wanted.has(name)) await rm(join(target, name), { recursive: true, force: true })
  for (const name of wanted) await mirror(join(source, name), join(target, name))
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([readFile(a), readFile(b)])
  return x.equals(y)
}
