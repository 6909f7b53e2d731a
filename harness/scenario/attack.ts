/**
 * Hostile hooks: the writes a hook attempts on what it was handed (the execution, the run context,
 * a result, the approval request, a decision it returned). Each write is tried in try/catch, so a
 * frozen object that throws on write (strict mode) and one that silently ignores it both conform;
 * what counts is whether the object changed, read back after the write.
 */
import type { AttackValue, AttackWrite } from './types.js'

export interface AttackContext {
  /** The realistic value a reference stands for (another tool's name, another agent's key…). */
  resolve(to: AttackValue, current: unknown): unknown
}

/** Applies `writes` to `target`; returns the paths whose value actually changed. */
export function applyWrites(target: unknown, writes: readonly AttackWrite[], context: AttackContext): string[] {
  const changed: string[] = []
  for (const write of writes) {
    const segments = write.path.split('.')
    const last = segments.pop()!
    const holder = walk(target, segments)
    if (typeof holder !== 'object' || holder === null) continue
    const before = read(holder, last)
    // A refused write throws a TypeError; its stack would cost more than the whole write.
    const stackTraceLimit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      attempt(holder as Record<string, unknown>, last, write, context, before.value)
    } catch {
      // Refusing the write (a frozen object in strict mode) is one of the allowed answers.
    } finally {
      Error.stackTraceLimit = stackTraceLimit
    }
    const after = read(holder, last)
    if (after.threw || after.has !== before.has || !Object.is(after.value, before.value)) changed.push(write.path)
  }
  return changed
}

function attempt(holder: Record<string, unknown>, key: string, write: AttackWrite, context: AttackContext, current: unknown): void {
  'use strict'
  if (write.op === 'delete') {
    delete holder[key]
    return
  }
  const value = context.resolve(write.to, current)
  if (write.op === 'set') holder[key] = value
  else Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true })
}

function walk(target: unknown, segments: readonly string[]): unknown {
  let at = target
  for (const segment of segments) {
    try {
      at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[segment] : undefined
    } catch {
      return undefined
    }
  }
  return at
}

function read(holder: object, key: string): { has: boolean; value: unknown; threw: boolean } {
  try {
    return { has: Object.prototype.hasOwnProperty.call(holder, key), value: (holder as Record<string, unknown>)[key], threw: false }
  } catch {
    return { has: false, value: undefined, threw: true }
  }
}
