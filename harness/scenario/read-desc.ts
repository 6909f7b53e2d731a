/**
 * Reading value descriptors without building them: what a descriptor's tag is, whether the value it
 * builds is an object or lossless JSON, what reading one of its fields gives. The interpreter builds
 * values from descriptors (values.ts); the oracle reads them here, so both agree on what one means.
 */
import type { Tagged, ValueDesc } from './types.js'

export const isTagged = (desc: unknown): desc is Tagged =>
  typeof desc === 'object' && desc !== null && !Array.isArray(desc) && typeof (desc as { $?: unknown }).$ === 'string'

export function tagOf(desc: ValueDesc | undefined): string | undefined {
  return isTagged(desc) ? desc.$ : undefined
}

/** A plain object descriptor (no `$` tag): it builds an object with these fields. */
export function isPlainDesc(desc: ValueDesc | undefined): desc is { [k: string]: ValueDesc } {
  return typeof desc === 'object' && desc !== null && !Array.isArray(desc) && !('$' in desc)
}

export function isUndefinedDesc(desc: ValueDesc): boolean {
  return tagOf(desc) === 'undefined'
}

/** The descriptor a promise descriptor settles with (through nested promises). */
export function unwrapPromise(desc: ValueDesc): ValueDesc {
  return tagOf(desc) === 'promise' ? unwrapPromise((desc as { value: ValueDesc }).value) : desc
}

const OBJECT_TAGS = new Set([
  'proxy', 'getter', 'shifting-getter', 'throwing-getter', 'cycle', 'instance', 'map', 'date', 'error', 'boolean-object', 'bare', 'boxed', 'sparse', 'twice',
  'frozen',
])

/** Whether `desc` builds an object (arrays included). */
export function isObjectDesc(desc: ValueDesc): boolean {
  const tag = tagOf(desc)
  if (tag !== undefined) return OBJECT_TAGS.has(tag)
  return isPlainDesc(desc) || Array.isArray(desc)
}

/** What reading a field throws with: a throwing getter stands there. */
export const THROWS = Symbol('throws')

/** What reading `key` on the value `desc` builds gives, as a descriptor (through getters and proxies). */
export function readField(desc: ValueDesc | undefined, key: string): ValueDesc | undefined | typeof THROWS {
  if (desc === undefined) return undefined
  const tag = tagOf(desc)
  if (tag === 'proxy' || tag === 'frozen') return readField((desc as { value: ValueDesc }).value, key)
  if (tag === 'getter') return key === 'x' ? (desc as { value: ValueDesc }).value : undefined
  if (tag === 'throwing-getter') return key === 'x' ? THROWS : undefined
  if (!isPlainDesc(desc)) return undefined
  const item = (desc as Record<string, ValueDesc>)[key]
  if (item === undefined) return undefined
  if (tagOf(item) === 'getter') return (item as { value: ValueDesc }).value
  if (tagOf(item) === 'throwing-getter') return THROWS
  if (tagOf(item) === 'undefined') return undefined
  return item
}

/** The `code` of a thrown error descriptor, when it carries a string one. */
export function thrownCode(thrown: ValueDesc): string | undefined {
  if (tagOf(thrown) !== 'error') return undefined
  const code = (thrown as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** Whether a thrown value has nothing to say: an empty string, or an Error whose message is empty. */
export const thrownSaysNothing = (thrown: ValueDesc): boolean =>
  thrown === '' || (tagOf(thrown) === 'error' && (thrown as { message?: unknown }).message === '')

/**
 * Whether the value `desc` builds is lossless JSON in SPEC.md's sense. A shifting getter has no one
 * JSON value, so it is never counted lossless: only direct checks use it (suites/in-snapshot-once.ts).
 */
export function isLosslessDesc(desc: ValueDesc): boolean {
  if (isTagged(desc)) {
    if (desc.$ === 'getter') return isLosslessDesc(desc.value)
    if (desc.$ === 'proxy') return isLosslessDesc(desc.value)
    if (desc.$ === 'twice' || desc.$ === 'frozen') return isLosslessDesc(desc.value)
    return false
  }
  if (Array.isArray(desc)) return desc.every(isLosslessDesc)
  if (typeof desc === 'number') return Number.isFinite(desc) && !Object.is(desc, -0)
  if (typeof desc === 'object' && desc !== null) return Object.values(desc).every(isLosslessDesc)
  return true
}

/** The JSON a lossless descriptor stands for (getters and proxies read through). */
export function jsonOf(desc: ValueDesc): unknown {
  if (isTagged(desc)) {
    if (desc.$ === 'getter') return { x: jsonOf(desc.value) }
    if (desc.$ === 'proxy') {
      const inner = jsonOf(desc.value)
      return typeof inner === 'object' && inner !== null ? inner : { value: inner }
    }
    if (desc.$ === 'twice') return [jsonOf(desc.value), jsonOf(desc.value)]
    if (desc.$ === 'frozen') return jsonOf(desc.value)
    return undefined
  }
  if (Array.isArray(desc)) return desc.map(jsonOf)
  if (typeof desc === 'object' && desc !== null) {
    return Object.fromEntries(Object.entries(desc).map(([k, v]) => [k, isTagged(v) && v.$ === 'getter' ? jsonOf(v.value) : jsonOf(v)]))
  }
  return desc
}
