/**
 * Lossless-JSON snapshots (IN-1, IN-2, OUT-1, META-1, SCH-2).
 * A snapshot is a fresh copy that round-trips through JSON unchanged; anything that would not
 * (BigInt, cycles, functions, symbols, undefined, NaN, -0, sparse arrays, Map, class instances,
 * throwing accessors, symbol or non-enumerable keys) is refused with the path where it was found.
 */
import type { JsonValue } from '../../harness/contract/spec.js'

export type Snapshot = { ok: true; value: JsonValue } | { ok: false; path: string; reason: string }

const MAX_DEPTH = 512

class NotLossless extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason)
  }
}

export function snapshotJson(input: unknown): Snapshot {
  try {
    return { ok: true, value: copy(input, '$', []) }
  } catch (error) {
    if (error instanceof NotLossless) return { ok: false, path: error.path, reason: error.reason }
    return { ok: false, path: '$', reason: `unreadable value (${describeThrown(error)})` }
  }
}

export function isLosslessJson(input: unknown): boolean {
  return snapshotJson(input).ok
}

function copy(value: unknown, path: string, ancestors: object[]): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw new NotLossless(path, 'non-finite number')
      if (Object.is(value, -0)) throw new NotLossless(path, '-0')
      return value
    case 'object':
      if (value === null) return null
      return copyObject(value, path, ancestors)
    default:
      throw new NotLossless(path, typeof value)
  }
}

function copyObject(value: object, path: string, ancestors: object[]): JsonValue {
  if (ancestors.includes(value)) throw new NotLossless(path, 'cycle')
  if (ancestors.length >= MAX_DEPTH) throw new NotLossless(path, 'nesting too deep')
  ancestors.push(value)
  try {
    return Array.isArray(value) ? copyArray(value, path, ancestors) : copyPlain(value, path, ancestors)
  } finally {
    ancestors.pop()
  }
}

function copyArray(value: unknown[], path: string, ancestors: object[]): JsonValue[] {
  if (Object.getPrototypeOf(value) !== Array.prototype) throw new NotLossless(path, 'array subclass')
  const keys = Reflect.ownKeys(value)
  if (keys.length !== value.length + 1) throw new NotLossless(path, 'sparse array or extra array keys')
  const out: JsonValue[] = new Array(value.length)
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (!descriptor) throw new NotLossless(`${path}[${i}]`, 'hole')
    out[i] = copy(readDescriptor(value, descriptor, `${path}[${i}]`), `${path}[${i}]`, ancestors)
  }
  return out
}

function copyPlain(value: object, path: string, ancestors: object[]): JsonValue {
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) throw new NotLossless(path, 'not a plain object')
  const out: { [k: string]: JsonValue } = {}
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') throw new NotLossless(path, 'symbol key')
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (!descriptor) continue
    const at = `${path}.${key}`
    if (!descriptor.enumerable) throw new NotLossless(at, 'non-enumerable key')
    const item = copy(readDescriptor(value, descriptor, at), at, ancestors)
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    } else {
      out[key] = item
    }
  }
  return out
}

function readDescriptor(owner: object, descriptor: PropertyDescriptor, path: string): unknown {
  if (!('get' in descriptor) && !('set' in descriptor)) return descriptor.value
  if (!descriptor.get) return undefined
  try {
    return descriptor.get.call(owner)
  } catch (error) {
    throw new NotLossless(path, `accessor threw (${describeThrown(error)})`)
  }
}

/** Freezes a value the registry owns, all the way down. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor && 'value' in descriptor) deepFreeze(descriptor.value)
  }
  return value
}

export function describeThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message
    if (typeof thrown === 'string') return thrown
    return typeof thrown
  } catch {
    return 'unreadable thrown value'
  }
}
