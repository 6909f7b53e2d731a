// toolreg's own entry points (the command, the child that runs the implementation) as one esbuild
// bundle each, so that a process does not resolve and load some 250 harness modules through tsx's
// loader thread: that cost about a second of CPU per process, most of a one-clause certify. A
// bundle is rebuilt when any file it was built from changed. Every `import.meta.url` is replaced by
// its module's own source URL, so paths computed from it (schemas, workers, fixtures) stay
// correct; plain-JS modules stay outside the bundle, shared with code that runs before it.
// Whatever goes wrong here (no esbuild, a read-only folder), the caller runs from source.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureTypeScriptLoader } from './typescript-loader.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'toolreg')
const FORMAT = 1

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
    const bundle = join(CACHE, `${name}.mjs`)
    const manifest = join(CACHE, `${name}.json`)
    if (!isFresh(manifest)) await rebuild(source, bundle, manifest)
    return pathToFileURL(bundle).href
  } catch {
    return undefined
  }
}

const stamp = (file) => {
  const s = statSync(file)
  return `${s.size}:${s.mtimeMs}`
}

function isFresh(manifest) {
  let recorded
  try {
    recorded = JSON.parse(readFileSync(manifest, 'utf8'))
  } catch {
    return false
  }
  if (recorded.format !== FORMAT || recorded.node !== process.version) return false
  try {
    return Object.entries(recorded.inputs).every(([file, was]) => stamp(file) === was)
  } catch {
    return false
  }
}

async function rebuild(source, bundle, manifest) {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [source],
    // Metafile paths are relative to this: ROOT, not the working directory of a user's project.
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [ownSourceUrls],
  })
  const inputs = {}
  for (const file of Object.keys(result.metafile.inputs)) {
    const path = resolve(ROOT, file.replace(/^[a-z-]+:/, ''))
    inputs[path] = stamp(path)
  }
  mkdirSync(CACHE, { recursive: true })
  const suffix = `.${process.pid}.tmp`
  writeFileSync(bundle + suffix, result.outputFiles[0].contents)
  renameSync(bundle + suffix, bundle)
  writeFileSync(manifest + suffix, JSON.stringify({ format: FORMAT, node: process.version, inputs }))
  renameSync(manifest + suffix, manifest)
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
