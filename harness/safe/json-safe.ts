/**
 * A plain JSON copy of anything an implementation handed over, for files and messages: it never
 * throws (a throwing getter or a Proxy trap becomes a marker), never loops (cycles become a
 * marker), and stays small (long strings are cut in the middle, deep or wide values are elided), so a
 * hostile result cannot crash a reporter or put 50 MB into a report.
 */
export interface JsonSafeLimits {
  /** Characters kept of one string. */
  maxString?: number
  /** Keys kept of one object, items of one array. */
  maxEntries?: number
  maxDepth?: number
}

const DEFAULTS: Required<JsonSafeLimits> = { maxString: 4096, maxEntries: 1000, maxDepth: 40 }

export function jsonSafe(value: unknown, limits: JsonSafeLimits = {}): unknown {
  return copy(value, { ...DEFAULTS, ...limits }, 0, new Set())
}

/**
 * A string cut to `max` characters, saying how much was cut. The cut is in the middle: what a
 * message is about sits at its start or its end (a tag, a key, a code) as often as not.
 */
export function clip(text: string, max = DEFAULTS.maxString): string {
  if (text.length <= max) return text
  const head = Math.ceil(max / 2)
  return `${text.slice(0, head)}… [${text.length - max} characters cut] …${text.slice(text.length - (max - head))}`
}

function copy(value: unknown, limits: Required<JsonSafeLimits>, depth: number, path: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return clip(value, limits.maxString)
    case 'number':
      return Number.isFinite(value) ? value : String(value)
    case 'boolean':
      return value
    case 'bigint':
      return `${value}n`
    case 'undefined':
      return undefined // as JSON has it: a key left out, an array item null
    case 'function':
      return '[function]'
    case 'symbol':
      return `[${String(value)}]`
  }
  if (value === null) return null
  const object = value as object
  if (path.has(object)) return '[cycle]'
  if (depth >= limits.maxDepth) return '[too deep]'
  path.add(object)
  try {
    return Array.isArray(object) ? copyArray(object, limits, depth, path) : copyObject(object, limits, depth, path)
  } catch (error) {
    return `[unreadable: ${thrownText(error)}]`
  } finally {
    path.delete(object)
  }
}

function copyArray(array: unknown[], limits: Required<JsonSafeLimits>, depth: number, path: Set<object>): unknown[] {
  const out: unknown[] = []
  const length = array.length
  for (let i = 0; i < Math.min(length, limits.maxEntries); i++) out.push(read(() => array[i], limits, depth, path) ?? null)
  if (length > limits.maxEntries) out.push(`[${length - limits.maxEntries} more items cut]`)
  return out
}

function copyObject(object: object, limits: Required<JsonSafeLimits>, depth: number, path: Set<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const keys = Object.keys(object)
  for (const key of keys.slice(0, limits.maxEntries)) {
    const item = read(() => (object as Record<string, unknown>)[key], limits, depth, path)
    // defineProperty, not assignment: a key named __proto__ stays a key
    if (item !== undefined) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
  }
  if (keys.length > limits.maxEntries) out['[cut]'] = `${keys.length - limits.maxEntries} more keys`
  return out
}

function read(get: () => unknown, limits: Required<JsonSafeLimits>, depth: number, path: Set<object>): unknown {
  try {
    return copy(get(), limits, depth + 1, path)
  } catch (error) {
    return `[threw: ${thrownText(error)}]`
  }
}

function thrownText(error: unknown): string {
  try {
    return clip(error instanceof Error ? error.message : String(error), 200)
  } catch {
    return 'an unprintable error'
  }
}
