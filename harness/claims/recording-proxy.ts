/**
 * Deep-frozen values behind Proxies that record every write attempt with its property path.
 * A frozen object alone only throws in strict code: sloppy code's writes fail silently, and a
 * body that catches the TypeError hides it too. The traps see every attempt either way.
 *
 * The tree is built bottom-up: each level is a frozen copy whose children are already proxies,
 * so the `get` trap can return the target's own value (a Proxy invariant for frozen targets).
 * Only attempts that would change something are recorded: re-freezing, or deleting a key that
 * is not there, is not a write.
 */
import type { JsonValue } from '../contract/spec.js'

export interface WriteAttempt {
  /** set, defineProperty, deleteProperty or setPrototypeOf. */
  operation: string
  path: string
}

export type WriteLog = WriteAttempt[]

/** A deep-frozen, write-recording view of a JSON value, rooted at `root` (e.g. "arguments"). */
export function recordingJson(value: JsonValue, root: string, log: WriteLog): JsonValue {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const copy = value.map((item, i) => recordingJson(item, `${root}[${i}]`, log))
    return recordingObject(Object.freeze(copy), root, log) as JsonValue
  }
  const copy: { [k: string]: JsonValue } = {}
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, {
    value: recordingJson(item, childPath(root, key), log),
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return recordingObject(Object.freeze(copy), root, log) as JsonValue
}

/** A write-recording Proxy over an object that is already frozen (its children are left as they are). */
export function recordingObject<T extends object>(frozen: T, root: string, log: WriteLog): T {
  const record = (operation: string, key: PropertyKey | undefined) => log.push({ operation, path: key === undefined ? root : childPath(root, key) })
  let proxy: T
  const handler: ProxyHandler<T> = {
    set(target, key, value, receiver) {
      if (receiver !== proxy) return Reflect.set(target, key, value, receiver)
      record('set', key)
      return false
    },
    defineProperty(target, key, descriptor) {
      const changed = !Reflect.defineProperty(target, key, descriptor)
      if (changed) record('defineProperty', key)
      return !changed
    },
    deleteProperty(target, key) {
      const changed = !Reflect.deleteProperty(target, key)
      if (changed) record('deleteProperty', key)
      return !changed
    },
    setPrototypeOf(target, prototype) {
      const changed = !Reflect.setPrototypeOf(target, prototype)
      if (changed) record('setPrototypeOf', undefined)
      return !changed
    },
  }
  proxy = new Proxy(frozen, handler)
  return proxy
}

/** A deep-frozen plain copy of a JSON value: what a conforming registry hands the body (IN-1). */
export function frozenJson(value: JsonValue): JsonValue {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return Object.freeze(value.map(frozenJson)) as JsonValue[]
  const copy: { [k: string]: JsonValue } = {}
  for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, {
    value: frozenJson(item),
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return Object.freeze(copy)
}

function childPath(root: string, key: PropertyKey): string {
  if (typeof key !== 'string') return `${root}[${String(key)}]`
  if (/^\d+$/.test(key)) return `${root}[${key}]`
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${root}.${key}` : `${root}[${JSON.stringify(key)}]`
}
