/**
 * One trial's environment: a fresh setup(), the definition built for it, observe() snapshots, and
 * teardown() whatever happens. A lifecycle hook that throws is an EnvironmentError, never a verdict.
 */
import type { JsonValue, ToolDefinition } from '../contract/spec.js'
import { describeThrown } from '../safe/safe-read.js'
import type { ClaimHarness, ToolLifecycle } from './types.js'
import { EnvironmentError } from './violation.js'

export interface Trial {
  readonly env: unknown
  readonly def: ToolDefinition
  /** observe(env), or null for a module without observe(). */
  readonly observe: () => Promise<JsonValue>
}

export const IMMEDIATE_HARNESS: ClaimHarness = { pause: () => Promise.resolve() }

export async function withTrial<T>(tool: ToolLifecycle, harness: ClaimHarness, body: (trial: Trial) => Promise<T>): Promise<T> {
  const env = await lifecycle('setup()', () => tool.setup(harness))
  try {
    const def = await lifecycle('the definition factory', () => tool.definitionFor(env))
    const observe = async () => (tool.observe ? await lifecycle('observe()', () => tool.observe!(env)) : null)
    return await body({ env, def, observe })
  } finally {
    await lifecycle('teardown()', () => tool.teardown(env))
  }
}

async function lifecycle<T>(what: string, action: () => T | Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    throw new EnvironmentError(`${what} threw: ${describeThrown(error)}`)
  }
}
