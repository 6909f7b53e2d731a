/**
 * A value as text for a person, whole up to a generous bound. Past the bound only long strings are
 * shortened, in the middle (their start and end kept, the count of characters left out between):
 * every key, every tag (‹bigint›, ‹cycle›…) and the structure stay, so the detail that decides a
 * failure is never the part cut off. Two styles: `valueWords` reads value descriptors
 * (`{ $: 'bigint' }` as ‹bigint›) and writes objects as `{ key: value }`, for stories; `jsonWithin`
 * writes JSON text, for violation details.
 */
import { clip } from './json-safe.js'

/** Characters a value is shown in before long strings inside it are shortened. */
export const VALUE_BOUND = 1000

/** Characters a shortened string keeps, start and end together. */
const KEPT = 24

type Style = 'words' | 'json'

/** A value in words: descriptors by tag, objects as `{ key: value }`, long strings shortened in the middle past `bound`. */
export const valueWords = (value: unknown, bound = VALUE_BOUND): string => fitted(value, bound, 'words')

/** JSON text of a plain value, long strings shortened in the middle past `bound` (keys and structure kept). */
export const jsonWithin = (value: unknown, bound = VALUE_BOUND): string => fitted(value, bound, 'json')

function fitted(value: unknown, bound: number, style: Style): string {
  try {
    const longest = longestString(value, new Set())
    // A string longer than the bound cannot fit whole (and a 50 MB one is not rendered to learn that).
    if (longest <= bound) {
      const whole = render(value, Infinity, style, new Set())
      if (whole.length <= bound || longest <= KEPT) return whole
    }
    // The largest per-string length that fits, by halving; at the floor the structure is kept even past the bound.
    let low = KEPT
    let high = Math.min(longest, bound)
    while (low < high) {
      const mid = Math.ceil((low + high) / 2)
      if (render(value, mid, style, new Set()).length <= bound) low = mid
      else high = mid - 1
    }
    return render(value, low, style, new Set())
  } catch {
    return '‹unprintable›'
  }
}

function longestString(value: unknown, seen: Set<object>): number {
  if (typeof value === 'string') return value.length
  if (typeof value !== 'object' || value === null || seen.has(value)) return 0
  seen.add(value)
  return Math.max(0, ...Object.values(value).map((item) => longestString(item, seen)))
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

function render(value: unknown, cap: number, style: Style, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(clip(value, cap))
    case 'number':
      return style === 'json' && !Number.isFinite(value) ? 'null' : String(value)
    case 'boolean':
      return String(value)
    case 'undefined':
      return style === 'json' ? 'null' : '‹undefined›'
    case 'bigint':
      return style === 'json' ? JSON.stringify(`${value}n`) : `${value}n`
    case 'function':
    case 'symbol':
      return style === 'json' ? 'null' : `‹${typeof value}›`
  }
  if (value === null) return 'null'
  const object = value as Record<string, unknown>
  if (seen.has(object)) return style === 'json' ? '"[cycle]"' : '‹cycle›'
  seen.add(object)
  try {
    const inner = (item: unknown) => render(item, cap, style, seen)
    if (Array.isArray(object)) return style === 'json' ? `[${object.map(inner).join(',')}]` : `[${object.map(inner).join(', ')}]`
    if (style === 'words' && typeof object.$ === 'string') return tagged(object, inner)
    const entries = Object.entries(object)
    if (style === 'json') return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${inner(v)}`).join(',')}}`
    if (entries.length === 0) return '{}'
    return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${inner(v)}`).join(', ')} }`
  } finally {
    seen.delete(object)
  }
}

/** A descriptor (`{ $: 'promise', value: 1 }`) as ‹promise›(1); an error with its name, code and data. */
function tagged(object: Record<string, unknown>, inner: (item: unknown) => string): string {
  const parts = [
    typeof object.name === 'string' ? `named ${object.name}` : undefined,
    'value' in object ? inner(object.value) : undefined,
    typeof object.code === 'string' ? object.code : undefined,
    'data' in object ? `data ${inner(object.data)}` : undefined,
  ].filter((part) => part !== undefined)
  return `‹${String(object.$)}›${parts.length > 0 ? `(${parts.join(', ')})` : ''}`
}

/** How many times, in words: never, once, twice, 3 times. */
export const times = (n: number): string => (n === 0 ? 'never' : n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)
