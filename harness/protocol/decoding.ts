/** Decoding one incoming value (see codec.ts): copies, stubs for handles, integrity applied last. */
import type { CodecHost, CodecState, EncodedProp, Integrity } from './wire-types.js'
import type { Thing } from './handle-tables.js'
import { ProtocolError } from './protocol-error.js'
import { arrayPrototypeFor, errorFromParts, prototypeFor } from './rebuilt-objects.js'

/** One incoming value: `seen` objects resolve within it; integrity is applied once it is built. */
export class Decoding {
  private readonly seen = new Map<number, unknown>()
  private readonly integrity: [object, Integrity][] = []

  constructor(
    private readonly codec: CodecState,
    private readonly host: CodecHost,
  ) {}

  finish(): void {
    for (const [object, level] of this.integrity.reverse()) {
      if (level === 'frozen') Object.freeze(object)
      else if (level === 'sealed') Object.seal(object)
      else Object.preventExtensions(object)
    }
  }

  value(encoded: unknown): unknown {
    if (encoded === null || typeof encoded !== 'object') {
      if (typeof encoded === 'number' || typeof encoded === 'string' || typeof encoded === 'boolean' || encoded === null) return encoded
      throw new ProtocolError(`not an encoded value: ${String(encoded)}`)
    }
    if (Array.isArray(encoded)) throw new ProtocolError('not an encoded value: a bare JSON array (arrays are tagged "array")')
    const e = encoded as { $?: unknown; id?: number; [k: string]: unknown }
    const tables = this.codec.tables
    switch (e.$) {
      case 'undefined':
        return undefined
      case 'number':
        return e.value === '-0' ? -0 : Number(e.value)
      case 'bigint':
        return BigInt(e.value as string)
      case 'symbol':
        if (typeof e.for === 'string') return Symbol.for(e.for)
        if (typeof e.wellKnown === 'string') return (Symbol as unknown as Record<string, symbol>)[e.wellKnown]
        return this.known(e.id!) ?? this.kept(e.id!, Symbol((e.description as string | null) ?? undefined))
      case 'function': {
        const fn = (this.known(e.id!) ?? this.kept(e.id!, stub(this.host, e.id!, String(e.name ?? '')))) as object
        if (Array.isArray(e.props)) this.fill({ $: 'function', props: e.props }, fn, true, false)
        return fn
      }
      case 'promise':
        return this.known(e.id!) ?? this.codec.newDeferred(e.id!, tables.nextGen(e.id!))
      case 'signal':
        return this.known(e.id!) ?? this.codec.newMirror(e.id!, tables.nextGen(e.id!), e.aborted === true, e.aborted ? this.value(e.reason) : undefined)
      case 'ref': {
        const own = tables.own(e.id!)
        if (own === undefined) throw new ProtocolError(`the peer referred to handle ${e.id} that this side does not hold`)
        return own
      }
      case 'seen':
        if (!this.seen.has(e.id!)) throw new ProtocolError(`"seen" refers to object ${e.id} not described earlier in the message`)
        return this.seen.get(e.id!)
      case 'object':
      case 'array':
      case 'date':
      case 'regexp':
      case 'map':
      case 'set':
      case 'boxed':
      case 'error':
        return this.object(e as { $: string; id: number; [k: string]: unknown })
      default:
        throw new ProtocolError(`unknown value tag ${JSON.stringify(e.$)}`)
    }
  }

  /** A handle already held (same thing, same copy), counted as received once more. */
  private known(id: number): Thing | undefined {
    const copy = this.codec.tables.copy(id)
    if (copy !== undefined) this.codec.tables.keepCopy(id, copy, this.codec.tables.nextGen(id))
    return copy
  }

  private kept<T extends Thing>(id: number, thing: T): T {
    this.codec.tables.keepCopy(id, thing, this.codec.tables.nextGen(id))
    return thing
  }

  private object(e: { $: string; id: number; [k: string]: unknown }): unknown {
    const tables = this.codec.tables
    const existing = tables.copy(e.id) as object | undefined
    const copy = existing ?? this.codec.newObjectCopy(e.id, tables.nextGen(e.id), this.shell(e), e.$ === 'object' || e.$ === 'array')
    if (existing) tables.keepCopy(e.id, existing, tables.nextGen(e.id))
    this.seen.set(e.id, copy)
    const target = this.codec.targetOf(copy)
    const fresh = existing === undefined || !Object.isFrozen(target)
    this.fill(e, target, fresh, existing !== undefined)
    if (fresh && typeof e.integrity === 'string') this.integrity.push([target, e.integrity as Integrity])
    return copy
  }

  private shell(e: { $: string; [k: string]: unknown }): object {
    switch (e.$) {
      case 'array': {
        const array = new Array((e.items as unknown[]).length)
        if (e.proto !== undefined) Object.setPrototypeOf(array, e.proto === 'null' ? null : arrayPrototypeFor(String((e.proto as { class?: unknown }).class)))
        return array
      }
      case 'date':
        return new Date(e.time as number)
      case 'regexp':
        return new RegExp(e.source as string, e.flags as string)
      case 'map':
        return new Map()
      case 'set':
        return new Set()
      case 'boxed':
        return Object(this.value(e.value))
      case 'error':
        return errorFromParts(e.class as string, e.name as string, e.message as string, e.stack as string | undefined)
      default: {
        const proto = e.proto === undefined ? Object.prototype : e.proto === 'null' ? null : prototypeFor(String((e.proto as { class?: unknown }).class))
        const shell = Object.create(proto) as object
        return e.proxy ? new Proxy(shell, {}) : shell
      }
    }
  }

  private fill(e: { $: string; [k: string]: unknown }, target: object, writable: boolean, update: boolean): void {
    const props = (e.props as EncodedProp[] | undefined) ?? []
    if (e.$ === 'array') {
      ;(e.items as unknown[]).forEach((item, i) => {
        const hole = typeof item === 'object' && item !== null && (item as { $?: unknown }).$ === 'hole'
        const value = hole ? undefined : this.value(item)
        if (!writable) return
        if (hole) delete (target as unknown[])[i]
        else (target as unknown[])[i] = value
      })
      if (writable) (target as unknown[]).length = (e.items as unknown[]).length
    }
    if (e.$ === 'map') {
      const entries = (e.entries as [unknown, unknown][]).map(([k, v]) => [this.value(k), this.value(v)] as const)
      if (writable) (target as Map<unknown, unknown>).clear()
      if (writable) for (const [k, v] of entries) (target as Map<unknown, unknown>).set(k, v)
    }
    if (e.$ === 'set') {
      const values = (e.values as unknown[]).map((v) => this.value(v))
      if (writable) (target as Set<unknown>).clear()
      if (writable) for (const v of values) (target as Set<unknown>).add(v)
    }
    const keys = new Set<PropertyKey>()
    for (const prop of props) {
      const key = this.value(prop.key) as PropertyKey
      keys.add(key)
      const descriptor: PropertyDescriptor = { enumerable: prop.enumerable !== false, configurable: prop.configurable !== false }
      if ('get' in prop || 'set' in prop) {
        descriptor.get = 'get' in prop ? (this.value(prop.get) as () => unknown) : undefined
        descriptor.set = 'set' in prop ? (this.value(prop.set) as (v: unknown) => void) : undefined
      } else {
        descriptor.value = this.value(prop.value)
        descriptor.writable = prop.writable !== false
      }
      if (writable) Object.defineProperty(target, key, descriptor)
    }
    if (update && writable && (e.$ === 'object' || e.$ === 'error')) {
      for (const key of Reflect.ownKeys(target)) {
        if (!keys.has(key) && !(e.$ === 'error' && (key === 'stack' || key === 'message'))) Reflect.deleteProperty(target, key)
      }
    }
  }
}

function stub(host: CodecHost, id: number, name: string): (...args: unknown[]) => unknown {
  const named = { [name]: (...args: unknown[]) => host.call(id, name, args) }
  return named[name]!
}

/** A copy whose writes reach the peer's original first (so a later read over there sees them). */
export function writeThroughProxy(shell: object, id: number, host: CodecHost): object {
  const proxy: object = new Proxy(shell, {
    set(target, key, value, receiver) {
      if (receiver !== proxy) return Reflect.set(target, key, value, receiver)
      if (!Object.isFrozen(target)) host.mutate!(id, 'set', key, value)
      return Reflect.set(target, key, value)
    },
    deleteProperty(target, key) {
      if (!Object.isFrozen(target)) host.mutate!(id, 'delete', key)
      return Reflect.deleteProperty(target, key)
    },
  })
  return proxy
}
