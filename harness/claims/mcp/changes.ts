/** What differs between two observations, as paths with both values, for a violation's detail. */
import { isDeepStrictEqual } from 'node:util'
import type { JsonValue } from '../../contract/spec.js'

const MAX_CHANGES = 3
const MAX_TEXT = 160

export function changedPaths(before: unknown, after: unknown, path = ''): string[] {
  if (isDeepStrictEqual(before, after)) return []
  const bothObjects = [before, after].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
  if (!bothObjects) return [path || '(root)']
  const keys = [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])]
  const [b, a] = [before as Record<string, unknown>, after as Record<string, unknown>]
  return keys.flatMap((key) => changedPaths(b[key], a[key], `${path}${path ? '.' : ''}${key}`))
}

/** Up to three changed paths, each `path: before → after`. */
export function describeChanges(before: JsonValue, after: JsonValue): string {
  const paths = changedPaths(before, after)
  const lines = paths.slice(0, MAX_CHANGES).map((p) => `${p}: ${short(at(before, p))} → ${short(at(after, p))}`)
  if (paths.length > MAX_CHANGES) lines.push(`… and ${paths.length - MAX_CHANGES} more`)
  return lines.join('\n')
}

export function at(value: unknown, path: string): unknown {
  if (path === '(root)') return value
  // Keys may hold dots (file names): walk by the longest key that matches.
  let node = value
  let rest = path
  while (rest !== '') {
    if (typeof node !== 'object' || node === null) return undefined
    const key = Object.keys(node).filter((k) => rest === k || rest.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0]
    if (key === undefined) return undefined
    node = (node as Record<string, unknown>)[key]
    rest = rest.slice(key.length + 1)
  }
  return node
}

export function short(value: unknown): string {
  if (value === undefined) return '(absent)'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
}
