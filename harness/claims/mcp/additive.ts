/**
 * CLM-8's test of "only additive updates": everything the state held before a call is still
 * there after it. Objects keep every key, each value kept additively; arrays keep every item,
 * each matched by a distinct item that holds it (in any order); a string may only grow at its
 * end (appended text); any other value stays equal.
 */
import type { JsonValue } from '../../contract/spec.js'

const KEYS = ['uri', 'name', 'id', 'path']

function sameKey(a: JsonValue, b: JsonValue | undefined): boolean {
  const isRecord = (v: unknown): v is { [k: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v)
  if (!isRecord(a) || !isRecord(b)) return false
  const key = KEYS.find((k) => k in a)
  return key !== undefined && a[key] === b[key]
}

export interface Loss {
  /** Where, as `key.key[index]`; empty for the whole value. */
  path: string
  before: JsonValue
  after: JsonValue | undefined
}

/** The first place where `after` lost something `before` held; undefined when nothing was lost. */
export function firstLoss(before: JsonValue | undefined, after: JsonValue | undefined, path = ''): Loss | undefined {
  if (before === undefined || before === null) return undefined
  const lost: Loss = { path, before, after }
  if (typeof before === 'string') return typeof after === 'string' && after.startsWith(before) ? undefined : lost
  if (Array.isArray(before)) {
    if (!Array.isArray(after)) return lost
    const unused = after.map((_, i) => i)
    for (const [i, item] of before.entries()) {
      const match = unused.findIndex((j) => firstLoss(item, after[j]) === undefined)
      if (match < 0) {
        // The item the server still lists under the same key (a resource's uri), to say what changed in it.
        const same = unused.map((j) => after[j]).find((candidate) => sameKey(item, candidate))
        return (same !== undefined ? firstLoss(item, same, `${path}[${i}]`) : undefined) ?? { path: `${path}[${i}]`, before: item, after: undefined }
      }
      unused.splice(match, 1)
    }
    return undefined
  }
  if (typeof before === 'object') {
    if (typeof after !== 'object' || after === null || Array.isArray(after)) return lost
    for (const [key, value] of Object.entries(before)) {
      const loss = firstLoss(value, after[key], `${path}${path ? '.' : ''}${key}`)
      if (loss !== undefined) return loss
    }
    return undefined
  }
  return before === after ? undefined : lost
}
