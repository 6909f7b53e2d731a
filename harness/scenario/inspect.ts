/** Looking at what an implementation handed over without changing it. */

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
  const seen = new Set<unknown>()
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => {
        if (typeof item === 'bigint') return `${item}n`
        if (typeof item === 'string' && item.length > maxString) return `${item.slice(0, maxString)}… [${item.length - maxString} more characters cut]`
        if (typeof item === 'function' || typeof item === 'symbol') return `[${typeof item}]`
        if (typeof item === 'object' && item !== null) {
          if (seen.has(item)) return '[cycle]'
          seen.add(item)
        }
        return item
      }) ?? 'undefined'
    )
  } catch {
    return '[unserialisable]'
  }
}
