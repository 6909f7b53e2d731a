/** Loading an adapter module and checking its shape, with one clear line when it is wrong. */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROFILES, type ConformanceAdapter } from '../contract/adapter.js'
import { describeThrown } from './safe-read.js'
import { importable } from './compiled.mjs'

export class AdapterLoadError extends Error {}

/** The bundled reference adapter, relative to this file. */
export const REFERENCE_ADAPTER = new URL('../../reference-impl/adapters/reference.ts', import.meta.url)

export async function loadAdapter(path?: string): Promise<ConformanceAdapter> {
  const url = path === undefined ? REFERENCE_ADAPTER.href : pathToFileURL(resolve(path)).href
  if (path !== undefined && !existsSync(resolve(path))) throw new AdapterLoadError(`adapter module not found: ${path}`)
  let module: { default?: unknown }
  try {
    // This package's own adapters load as bundles, like the harness; a user's through tsx, which also
    // serves the TypeScript it imports at run time. Under --coverage every adapter loads from
    // source, so that V8's coverage is of the implementation's own files.
    module = (await import(await importable(new URL(url), { bundle: process.env.NODE_V8_COVERAGE === undefined }))) as { default?: unknown }
  } catch (error) {
    throw new AdapterLoadError(`adapter module ${path ?? 'reference'} failed to load: ${describeThrown(error)}`)
  }
  const adapter = module.default as Partial<ConformanceAdapter> | undefined
  const where = path ?? 'reference'
  if (adapter === undefined || adapter === null) throw new AdapterLoadError(`adapter module ${where} has no default export`)
  if (typeof adapter !== 'object') throw new AdapterLoadError(`adapter module ${where}: the default export is not an object`)
  if (typeof adapter.name !== 'string' || adapter.name === '') throw new AdapterLoadError(`adapter module ${where}: "name" must be a non-empty string`)
  if (!Array.isArray(adapter.profiles)) throw new AdapterLoadError(`adapter module ${where}: "profiles" must be an array`)
  const unknown = adapter.profiles.filter((p) => !PROFILES.includes(p))
  if (unknown.length > 0) throw new AdapterLoadError(`adapter module ${where}: unknown profiles ${unknown.join(', ')} (known: ${PROFILES.join(', ')})`)
  if (typeof adapter.create !== 'function') throw new AdapterLoadError(`adapter module ${where}: "create" must be a function`)
  return adapter as ConformanceAdapter
}
