// toolreg's own entry points (the command, the child that runs the implementation) as one esbuild
// bundle each, so that a process does not resolve and load some 250 harness modules through tsx's
// loader thread: that cost about a second of CPU per process, most of a one-clause certify. A
// bundle is rebuilt when any file it was built from changed. Every `import.meta.url` is replaced by
// its module's own source URL, so paths computed from it (schemas, workers, fixtures) stay
// correct; plain-JS modules stay outside the bundle, shared with code that runs before it. What a
// module imports dynamically goes to a chunk of its own, with the packages only it imports: a
// command does not load every other command's dependencies (the MCP client alone cost 0.2 s of CPU
// in every certify). The pure-JavaScript packages every process loads (ajv, fast-check) go inside
// a process's bundle: loading ajv's hundred CommonJS files and fast-check's ESM tree cost each
// certify's child and supervisor some 0.1 s of CPU. The entries a user's own process imports
// (`toolreg`, `toolreg/vitest`) keep every package outside, shared with the user's. Whatever goes
// wrong here (no esbuild, a read-only folder), the caller runs from source.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createHash, randomUUID } from 'node:crypto'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureTypeScriptLoader } from './typescript-loader.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'toolreg')
const FORMAT = 4
/** A build another process may still be loading chunks from is kept this long after it was replaced. */
const REPLACED_KEPT_MS = 60 * 60 * 1000

/**
 * What to import for the TypeScript module at `url`: its bundle when it is this package's own and
 * `bundle` allows it, else the source itself, with tsx registered to load it.
 */
export async function importable(url, { bundle = true } = {}) {
  const compiled = bundle && isOwnSource(url) ? await compiledEntry(url) : undefined
  if (compiled) return compiled
  await ensureTypeScriptLoader()
  return url.href
}

/** Whether `url` is a TypeScript file of this package (not a dependency's, not a user's). */
export function isOwnSource(url) {
  if (url.protocol !== 'file:' || !url.pathname.endsWith('.ts')) return false
  const path = relative(ROOT, fileURLToPath(url))
  return !path.startsWith('..') && !path.startsWith('node_modules')
}

/** The URL of `entry`'s up-to-date bundle, built now if needed; undefined when it cannot be had. */
export async function compiledEntry(entry) {
  try {
    const source = fileURLToPath(entry)
    const name = `${relative(ROOT, source).replace(/[\\/]/g, '_').replace(/\.ts$/, '')}-${createHash('sha1').update(ROOT).digest('hex').slice(0, 8)}`
    const manifest = manifestPath(name)
    const dir = freshBuild(manifest) ?? (await rebuild(source, name, manifest))
    return pathToFileURL(join(CACHE, dir, entryFile(source))).href
  } catch {
    return undefined
  }
}

/** The file that records what `name`'s current build was made from, and its folder. */
export const manifestPath = (name) => join(CACHE, `${name}.json`)

const entryFile = (source) => `${basename(source, '.ts')}.mjs`

const stamp = (file) => {
  const s = statSync(file)
  return `${s.size}:${s.mtimeMs}`
}

/** The folder of the build `manifest` records, if every file it was built from is unchanged. */
function freshBuild(manifest) {
  let recorded
  try {
    recorded = JSON.parse(readFileSync(manifest, 'utf8'))
  } catch {
    return undefined
  }
  if (recorded.format !== FORMAT || recorded.node !== process.version) return undefined
  try {
    return Object.entries(recorded.inputs).every(([file, was]) => stamp(file) === was) ? recorded.dir : undefined
  } catch {
    return undefined
  }
}

/** Builds `source` into a folder of its own, records it in `manifest`, and returns the folder's name. */
async function rebuild(source, name, manifest) {
  const { build } = await import('esbuild')
  const dir = `${name}.${randomUUID().slice(0, 8)}`
  const out = join(CACHE, dir)
  const result = await build({
    entryPoints: [source],
    // Metafile paths are relative to this: ROOT, not the working directory of a user's project.
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    outdir: out,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [packagesInside(source), ownSourceUrls],
  })
  const inputs = {}
  for (const file of Object.keys(result.metafile.inputs)) {
    const path = resolve(ROOT, file.replace(/^[a-z-]+:/, ''))
    inputs[path] = stamp(path)
  }
  // Written beside, then renamed: a process never loads a half-written build.
  const staging = `${out}.tmp`
  mkdirSync(staging, { recursive: true })
  for (const file of result.outputFiles) writeFileSync(join(staging, relative(out, file.path)), file.contents)
  renameSync(staging, out)
  const suffix = `.${process.pid}.tmp`
  writeFileSync(manifest + suffix, JSON.stringify({ format: FORMAT, node: process.version, inputs, dir }))
  renameSync(manifest + suffix, manifest)
  removeReplacedBuilds(name, dir)
  return dir
}

/** Earlier builds of `name` (and bundles of the single-file format), once no process can still be loading them. */
function removeReplacedBuilds(name, current) {
  for (const entry of readdirSync(CACHE)) {
    if (!entry.startsWith(`${name}.`) || entry === current || entry.endsWith('.json')) continue
    try {
      if (Date.now() - statSync(join(CACHE, entry)).mtimeMs > REPLACED_KEPT_MS) rmSync(join(CACHE, entry), { recursive: true, force: true })
    } catch {
      // Another process removed it first.
    }
  }
}

/** Packages a process's bundle holds itself (with the packages they import). */
const INSIDE = new Set([
  ...['ajv', 'fast-uri', 'fast-deep-equal', 'json-schema-traverse', 'require-from-string'],
  ...['fast-check', 'pure-rand', '@fast-check/poisoning'],
])
/** Entries loaded into a user's process: every package stays outside, one copy with the user's. */
const SHARED = ['harness/index.ts', 'harness/vitest.ts'].map((entry) => join(ROOT, entry))

const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')

/** Every package outside the bundle but those of INSIDE, unless `source` is a SHARED entry. */
function packagesInside(source) {
  const shared = SHARED.includes(source)
  return {
    name: 'toolreg-packages-inside',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
        if (path.startsWith('node:') || path.startsWith('file:')) return undefined
        return !shared && INSIDE.has(packageName(path)) ? undefined : { path, external: true }
      })
    },
  }
}

const ownSourceUrls = {
  name: 'toolreg-own-source-urls',
  setup(build) {
    build.onResolve({ filter: /\.mjs$/ }, (args) => {
      if (!args.path.startsWith('.')) return undefined
      return { path: pathToFileURL(resolve(args.resolveDir, args.path)).href, external: true }
    })
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      const contents = text.includes('import.meta.url') ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : text
      return { contents, loader: 'ts', resolveDir: dirname(args.path) }
    })
  },
}
