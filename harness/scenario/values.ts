/**
 * Turning value descriptors into live values. Only the interpreter builds values; scenarios stay
 * JSON. Reading descriptors without building them (lossless or not, their JSON) is read-desc.ts's.
 */
import { isTagged } from './read-desc.js'
import type { Tagged, ValueDesc } from './types.js'

export { isLosslessDesc, jsonOf } from './read-desc.js'

class Thing {
  readonly x = 1
}

/** Builds a fresh live value every call, so no two stages share one by accident. */
export function buildValue(desc: ValueDesc): unknown {
  if (isTagged(desc)) return buildTagged(desc)
  if (Array.isArray(desc)) return desc.map(buildValue)
  if (typeof desc === 'object' && desc !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(desc)) defineEntry(out, key, item)
    return out
  }
  return desc
}

/** Freezes `value` and every object its own data properties reach (getters are left unread). */
export function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return value
  seen.add(value)
  for (const key of Reflect.ownKeys(value)) {
    const property = Object.getOwnPropertyDescriptor(value, key)
    if (property && 'value' in property) deepFreeze(property.value as unknown, seen)
  }
  return Object.freeze(value)
}

/** The caller's late write: every object `value` reaches that is not frozen gains a key (getters left unread). */
export function changeEveryUnfrozen(value: unknown, seen = new Set<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return
  seen.add(value)
  for (const key of Reflect.ownKeys(value)) {
    const property = Object.getOwnPropertyDescriptor(value, key)
    if (property && 'value' in property) changeEveryUnfrozen(property.value as unknown, seen)
  }
  if (!Object.isFrozen(value) && !Array.isArray(value)) Reflect.set(value, 'changedByCaller', true)
}

function defineEntry(target: Record<string, unknown>, key: string, item: ValueDesc): void {
  if (isTagged(item) && item.$ === 'throwing-getter') {
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: throwingGetter })
  } else if (isTagged(item) && item.$ === 'shifting-getter') {
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: shiftingGetter(item.reads) })
  } else if (isTagged(item) && item.$ === 'getter') {
    const inner = item.value
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: () => buildValue(inner) })
  } else {
    Object.defineProperty(target, key, { value: buildValue(item), enumerable: true, writable: true, configurable: true })
  }
}

/** A getter answering its n-th read with `reads[n]`, the last one once they run out (a fresh value each read). */
function shiftingGetter(reads: ValueDesc[]): () => unknown {
  let count = 0
  return () => buildValue(reads[Math.min(count++, reads.length - 1)] ?? null)
}

function throwingGetter(): never {
  throw new Error('toolreg: a throwing getter')
}

/** Errors named for a built-in class are of that class (`instanceof TypeError` holds), as a runtime's own throws are. */
const BUILT_IN_ERRORS: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError }

function buildTagged(desc: Tagged): unknown {
  switch (desc.$) {
    case 'bigint':
      return 1n
    case 'cycle': {
      const cycle: Record<string, unknown> = { name: 'cycle' }
      cycle.self = cycle
      return cycle
    }
    case 'function':
      return () => 'a function'
    case 'symbol':
      return Symbol('toolreg')
    case 'undefined':
      return undefined
    case 'nan':
      return Number.NaN
    case 'infinity':
      return Number.POSITIVE_INFINITY
    case 'negzero':
      return -0
    case 'sparse':
      // eslint-disable-next-line no-sparse-arrays
      return desc.of === undefined ? [1, , 3] : [buildValue(desc.of), , buildValue(desc.of)]
    case 'map':
      return new Map([['k', 1]])
    case 'date':
      return new Date(0)
    case 'instance':
      return new Thing()
    case 'boolean-object':
      // eslint-disable-next-line no-new-wrappers
      return new Boolean(true)
    case 'bare':
      return Object.assign(Object.create(null) as object, { reason: 'bare' })
    case 'boxed':
      return Object(desc.value) as object
    case 'promise':
      return Promise.resolve(buildValue(desc.value))
    case 'throwing-getter': {
      const holder = {}
      Object.defineProperty(holder, 'x', { enumerable: true, get: throwingGetter })
      return holder
    }
    case 'getter': {
      const holder = {}
      const inner = desc.value
      Object.defineProperty(holder, 'x', { enumerable: true, get: () => buildValue(inner) })
      return holder
    }
    case 'shifting-getter': {
      const holder = {}
      Object.defineProperty(holder, 'x', { enumerable: true, get: shiftingGetter(desc.reads) })
      return holder
    }
    case 'proxy': {
      const target = buildValue(desc.value)
      return new Proxy(typeof target === 'object' && target !== null ? target : { value: target }, {})
    }
    case 'frozen':
      return Object.freeze(buildValue(desc.value))
    case 'twice': {
      const shared = buildValue(desc.value)
      return [shared, shared]
    }
    case 'error': {
      const error = new (BUILT_IN_ERRORS[desc.name ?? ''] ?? Error)(desc.message ?? 'toolreg: thrown')
      if (desc.code !== undefined) Object.assign(error, { code: desc.code })
      if (desc.data !== undefined) Object.assign(error, { data: buildValue(desc.data) })
      if (desc.name !== undefined) error.name = desc.name
      if (desc.content !== undefined) Object.assign(error, { content: buildValue(desc.content) })
      return error
    }
  }
}
