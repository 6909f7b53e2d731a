/**
 * The one safe path for reading implementation values in checks (issue 11, item 6). Built on
 * json-safe.ts: text for messages that never throws and stays small (`show`, `describeThrown`), a
 * lossless-JSON reader that names what is not lossless instead of throwing a TypeError
 * (`losslessText`), and a read-once snapshot of a result whose reading runs implementation code
 * (getters, Proxies: `readOnce`). What the implementation did wrong surfaces as an
 * `ImplementationFault` naming its clause; anything else a check throws is the harness's own bug.
 */
import { types } from 'node:util'
import { clip, jsonSafe } from './json-safe.js'
import { jsonWithin } from './value-text.js'

/** An implementation value broke a check: the verdict is the clause's (the property's when unnamed). */
export class ImplementationFault extends Error {
  constructor(
    readonly detail: string,
    readonly clause?: string,
  ) {
    super(detail)
    this.name = 'ImplementationFault'
  }
}

/** A check threw for a reason of its own: exit 2, the stack in the report, never a verdict. */
export class HarnessError extends Error {
  constructor(message: string, cause: unknown) {
    super(`${message}: ${describeThrown(cause)}`)
    this.name = 'HarnessError'
    const stack = readStack(cause)
    if (stack) this.stack = `${this.name}: ${this.message}\n  caused by ${stack}`
  }
}

/**
 * Compact JSON text of any value, for a message: never throws, never loops, about `max` characters.
 * Long strings are shortened in the middle so keys and structure stay; only a value whose structure
 * alone is past four times `max` is cut as text.
 */
export function show(value: unknown, max = 300): string {
  try {
    const copied = jsonSafe(value, { maxString: Infinity, maxEntries: 50, maxDepth: 12 })
    return clip(copied === undefined ? 'undefined' : jsonWithin(copied, max), max * 4)
  } catch {
    return '[unprintable]'
  }
}

/** A thrown value as one short line; reads `name` and `message` once each. */
export function describeThrown(error: unknown, max = 500): string {
  try {
    if (typeof error === 'object' && error !== null && !types.isProxy(error) && error instanceof Error) {
      const name = dataOf(error, 'name') ?? 'Error'
      const message = dataOf(error, 'message') ?? ''
      return clip(`${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : show(message)}`, max)
    }
    return typeof error === 'object' && error !== null ? `thrown ${show(error, max)}` : clip(String(error), max)
  } catch {
    return 'an unprintable error'
  }
}

function dataOf(object: object, key: string): unknown {
  for (let o: object | null = object; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key)
    if (d) return 'value' in d ? d.value : undefined
  }
  return undefined
}

function readStack(error: unknown): string | undefined {
  try {
    return error instanceof Error && typeof error.stack === 'string' ? clip(error.stack, 4000) : undefined
  } catch {
    return undefined
  }
}

/**
 * Where `value` is not lossless JSON (a BigInt, a cycle, a getter, a Proxy, a function, a symbol,
 * undefined, NaN, ±Infinity, -0, a non-plain object), or undefined when it is. Runs no getter and
 * no Proxy trap.
 */
export function losslessProblem(value: unknown, path = '$', seen = new Set<object>()): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? undefined : `${path} is ${Object.is(value, -0) ? '-0' : String(value)}`
    case 'bigint':
      return `${path} is a BigInt`
    case 'undefined':
    case 'function':
    case 'symbol':
      return `${path} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}`
  }
  if (value === null) return undefined
  const object = value as object
  if (types.isProxy(object)) return `${path} is a Proxy`
  if (seen.has(object)) return `${path} is a cycle`
  const proto = Object.getPrototypeOf(object) as unknown
  const isArray = Array.isArray(object)
  if (!isArray && proto !== Object.prototype && proto !== null) return `${path} is not a plain object`
  seen.add(object)
  try {
    for (const key of Reflect.ownKeys(object)) {
      if (typeof key === 'symbol') return `${path} has a symbol key`
      if (isArray && key === 'length') continue
      const d = Object.getOwnPropertyDescriptor(object, key)!
      if (!d.enumerable) return `${path}.${key} is not enumerable`
      if (!('value' in d)) return `${path}.${key} is a getter`
      const problem = losslessProblem(d.value, isArray ? `${path}[${key}]` : `${path}.${key}`, seen)
      if (problem) return problem
    }
    if (isArray && Object.keys(object).length !== (object as unknown[]).length) return `${path} is a sparse array`
    return undefined
  } finally {
    seen.delete(object)
  }
}

/** JSON text of a lossless value; anything else is the implementation's fault, of `clause`. */
export function losslessText(value: unknown, clause?: string, what = 'the value'): string {
  const problem = losslessProblem(value)
  if (problem) throw new ImplementationFault(`${what} is not lossless JSON: ${clip(problem, 200)}`, clause)
  return JSON.stringify(value)
}

/**
 * The same for a value a registry published, read once through any Proxy first (a protocol copy is
 * one): a getter, or what is not lossless JSON, is the implementation's fault, of `clause`.
 */
export function publishedText(value: unknown, clause?: string, what = 'the value'): string {
  const problems: string[] = []
  const copy = readOnce(value, problems)
  if (problems.length > 0) throw new ImplementationFault(`${what} is not lossless JSON: ${clip(problems[0]!, 200)}`, clause)
  return losslessText(copy, clause, what)
}

/** True when reading `value` runs implementation code: a Proxy or a getter somewhere inside. */
export function readingRunsCode(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (types.isProxy(value)) return true
  if (seen.has(value)) return false
  seen.add(value)
  for (const key of Reflect.ownKeys(value)) {
    const d = Object.getOwnPropertyDescriptor(value, key)
    if (d && !('value' in d)) return true
    if (d && readingRunsCode(d.value, seen)) return true
  }
  return false
}

/**
 * A copy of `value` read once: each getter runs once, each Proxy is read once through its traps,
 * cycles stay cycles, BigInts stay BigInts; what could not be read is left out and named in
 * `problems`. Frozen objects give frozen copies.
 */
export function readOnce(value: unknown, problems: string[], path = '$', copies = new Map<object, unknown>(), fallbackKeys: readonly string[] = []): unknown {
  if (typeof value !== 'object' || value === null) return value
  const known = copies.get(value)
  if (known !== undefined) return known
  try {
    const source = value
    const isArray = Array.isArray(source)
    const out: Record<PropertyKey, unknown> = isArray ? [] : Object.create(prototypeOf(source, problems, path))
    copies.set(source, out)
    let keys: PropertyKey[]
    try {
      keys = Reflect.ownKeys(source)
    } catch (error) {
      // Keys that cannot be listed: read the ones the contract names, each once.
      problems.push(`listing the keys of ${path} threw ${describeThrown(error, 200)}`)
      keys = fallbackKeys.filter((key) => {
        try {
          return Reflect.has(source, key)
        } catch {
          return false
        }
      })
    }
    for (const key of keys) {
      if (isArray && key === 'length') continue
      const at = `${path}.${String(key)}`
      try {
        const d = Reflect.getOwnPropertyDescriptor(source, key) ?? (
          fallbackKeys.includes(String(key)) ? { value: Reflect.get(source, key), enumerable: true } : undefined
        )
        if (!d) continue
        let item: unknown
        if ('value' in d) item = d.value
        else {
          problems.push(`${at} is a getter`)
          item = d.get?.call(source)
        }
        Object.defineProperty(out, key, { value: readOnce(item, problems, at, copies), enumerable: d.enumerable ?? false, writable: true, configurable: true })
      } catch (error) {
        problems.push(`reading ${at} threw ${describeThrown(error, 200)}`)
      }
    }
    if (isFrozen(source)) Object.freeze(out)
    return out
  } catch (error) {
    problems.push(`reading ${path} threw ${describeThrown(error, 200)}`)
    const empty = Object.freeze({})
    copies.set(value, empty)
    return empty
  }
}

function prototypeOf(source: object, problems: string[], path: string): object | null {
  try {
    return Object.getPrototypeOf(source) as object | null
  } catch (error) {
    problems.push(`the prototype of ${path} could not be read: ${describeThrown(error, 200)}`)
    return Object.prototype
  }
}

function isFrozen(source: object): boolean {
  try {
    return Object.isFrozen(source)
  } catch {
    return false
  }
}
