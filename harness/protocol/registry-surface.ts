/**
 * What of a registry crosses the boundary: the RegistryUnderTest methods it has, bound to it,
 * and its reservedNames, as one frozen object (so the harness's copy is frozen too and its
 * methods are function handles).
 */
import type { RegistryUnderTest } from '../contract/adapter.js'

export const REGISTRY_METHODS = [
  'agent', 'register', 'guard', 'onPreExecute', 'onExecute', 'onPostExecute', 'onResult', 'schemas', 'executionMode', 'execute',
  'errorCode', 'dispose', 'defineTool', 'runBatch', 'modelTools', 'codeProgram', 'onCodeDispatchLog', 'codeDispatchEvents',
] as const

export function registrySurface(registry: RegistryUnderTest): Readonly<Record<string, unknown>> {
  const surface: Record<string, unknown> = {}
  for (const method of REGISTRY_METHODS) {
    const fn = (registry as unknown as Record<string, unknown>)[method]
    if (typeof fn === 'function') surface[method] = fn.bind(registry)
  }
  if (registry.reservedNames !== undefined) surface.reservedNames = registry.reservedNames
  return Object.freeze(surface)
}
