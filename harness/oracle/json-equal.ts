/** Equality of JSON values (-0 and NaN are not JSON: they equal nothing, not even themselves). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return Object.is(a, b) || typeof a !== 'number'
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqualJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}
