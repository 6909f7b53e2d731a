/**
 * A key that looks like an agent's and is not it (PRE-7): agents are compared by identity, so a
 * registry must route a call carrying it as an agent nothing was registered for. An object key is
 * copied field by field, frozen if the key is, with its prototype; a key that is no object cannot
 * be copied without being equal, so another agent's key, under a name nothing uses, stands in.
 */
import type { RegistryUnderTest } from '../contract/adapter.js'

export function lookalikeOf(registry: RegistryUnderTest, name: string): unknown {
  const key = registry.agent(name)
  if ((typeof key !== 'object' && typeof key !== 'function') || key === null) return registry.agent(`${name} (lookalike)`)
  const copy = Object.assign(Object.create(Object.getPrototypeOf(key) as object | null) as object, key)
  return Object.isFrozen(key) ? Object.freeze(copy) : copy
}
