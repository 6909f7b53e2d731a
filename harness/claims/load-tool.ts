/**
 * Loading a tool module: the definition (default export, or `exportName`) is a ToolDefinition or
 * a factory `(env) => ToolDefinition`; `setup`, `observe` and `teardown` are optional exports.
 * Every way a module can be unusable becomes one ToolModuleError line (exit 2). One whole trial
 * runs here, so a broken factory or lifecycle hook fails now rather than in the middle of a claim.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describeThrown } from '../safe/safe-read.js'
import type { JsonValue, ToolDefinition } from '../contract/spec.js'
import { toolShapeProblem } from './tool-shape.js'
import { IMMEDIATE_HARNESS, withTrial } from './trial.js'
import type { ClaimHarness, LoadedTool, ToolLifecycle } from './types.js'
import { EnvironmentError } from './violation.js'
import { ensureTypeScriptLoader } from '../safe/typescript-loader.mjs'

export class ToolModuleError extends Error {}

export async function loadTool(modulePath: string, exportName = 'default'): Promise<LoadedTool> {
  const source = exportName === 'default' ? modulePath : `${modulePath}#${exportName}`
  if (!existsSync(resolve(modulePath))) throw new ToolModuleError(`tool module not found: ${modulePath}`)
  let module: Record<string, unknown>
  try {
    await ensureTypeScriptLoader()
    module = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>
  } catch (error) {
    throw new ToolModuleError(`tool module ${modulePath} failed to load: ${describeThrown(error)}`)
  }
  const exported = module[exportName]
  if (exported === undefined) {
    const named = Object.keys(module).filter((k) => k !== 'default')
    const missing = exportName === 'default' ? 'default export' : `export "${exportName}"`
    throw new ToolModuleError(`tool module ${modulePath} has no ${missing}${named.length > 0 ? ` (it exports: ${named.join(', ')})` : ''}`)
  }
  for (const hook of ['setup', 'observe', 'teardown']) {
    if (module[hook] !== undefined && typeof module[hook] !== 'function') throw new ToolModuleError(`tool module ${source}: "${hook}" must be a function`)
  }
  const setup = module.setup as ((h: ClaimHarness) => unknown) | undefined
  const observe = module.observe as ((env: unknown) => unknown) | undefined
  const teardown = module.teardown as ((env: unknown) => unknown) | undefined
  const lifecycle: ToolLifecycle = {
    source,
    definitionFor: typeof exported === 'function' ? (env) => (exported as (env: unknown) => ToolDefinition)(env) : () => exported as ToolDefinition,
    setup: async (harness) => (setup ? await setup(harness) : undefined),
    hasSetup: setup !== undefined,
    observe: observe ? async (env) => (await observe(env)) as JsonValue : undefined,
    teardown: async (env) => void (teardown ? await teardown(env) : undefined),
  }
  return { ...lifecycle, definition: await tryOnce(lifecycle) }
}

/** One whole trial (setup, definition, observe, teardown), so a module that cannot even do that is refused now. */
async function tryOnce(lifecycle: ToolLifecycle): Promise<ToolDefinition> {
  const fail = (problem: string) => new ToolModuleError(`tool module ${lifecycle.source}: ${problem}`)
  try {
    return await withTrial(lifecycle, IMMEDIATE_HARNESS, async ({ def, observe }) => {
      const problem = toolShapeProblem(def)
      if (problem) throw fail(`the definition ${problem}`)
      if (!isJson(await observe())) throw fail('observe() must return a JSON value')
      return def
    })
  } catch (error) {
    throw error instanceof EnvironmentError ? fail(error.message) : error
  }
}

function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined
  } catch {
    return false
  }
}
