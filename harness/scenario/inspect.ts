/** Looking at what an implementation handed over without changing it. */
import { jsonSafe } from '../safe/json-safe.js'

/** True when `value` and everything reachable from it (except `skip` keys at the top) is frozen. */
export function isDeepFrozen(value: unknown, skip: readonly string[] = [], seen = new Set<unknown>()): boolean {
  if (typeof value !== 'object' || value === null) return true
  if (seen.has(value)) return true
  seen.add(value)
  try {
    if (!Object.isFrozen(value)) return false
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'string' && skip.includes(key)) continue
      const descriptor = Object.getOwnPropertyDescriptor(value, key)
      if (descriptor && 'value' in descriptor && !isDeepFrozen(descriptor.value, [], seen)) return false
    }
    return true
  } catch {
    return false
  }
}

/** A JSON text of `value` that never throws (for reports and traces); strings past `maxString` are cut. */
export function safeJson(value: unknown, maxString = Infinity): string {
  try {
    return JSON.stringify(jsonSafe(value, { maxString, maxEntries: 10_000, maxDepth: 200 })) ?? 'undefined'
  } catch {
    return '[unserialisable]'
  }
}
