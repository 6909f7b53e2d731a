/**
 * The value codec: any JavaScript value as JSON, for one side of the protocol. JSON primitives
 * cross as themselves; everything else is a tagged object `{"$": tag, ...}` (see the README's
 * protocol section). Objects carry an id so the same object arrives as the same copy (identity,
 * shared references, cycles), with their own properties as descriptors (getters cross as
 * functions, non-enumerable and symbol keys survive) and their integrity level (a frozen object
 * arrives frozen). Functions, symbols, promises and abort signals cross as handles owned by the
 * sender; a copy sent back arrives as the original (`ref`).
 */
import { types } from 'node:util'
import { HandleTables, symbolByName, type Thing } from './handle-tables.js'
import { ProtocolError } from './protocol-error.js'
import { errorFromParts, prototypeFor } from './rebuilt-objects.js'

export type Encoded = null | boolean | number | string | { $: string; [key: string]: unknown }

interface EncodedProp {
  key: Encoded
  value?: Encoded
  get?: Encoded
  set?: Encoded
  enumerable?: false
  writable?: false
  configurable?: false
}

type Integrity = 'frozen' | 'sealed' | 'nonextensible'

/** What the codec needs from the connection it serves. */
export interface CodecHost {
  /** Calls the peer's function `id` synchronously and returns its decoded result (or throws). */
  call(id: number, name: string, args: unknown[]): unknown
  /** Our promise `id` settled: tell the peer. */
  settled(id: number, outcome: { value: unknown } | { error: unknown }): void
  /** Our signal `id` aborted: tell the peer. */
  aborted(id: number, reason: unknown): void
  /** Our copy of the peer's thing `id` was collected. */
  released(id: number, gen: number): void
  /** Writes to copies of the peer's non-frozen objects reach the original (optional). */
  mutate?(id: number, op: 'set' | 'delete', key: PropertyKey, value?: unknown): boolean
}

export class Codec {
  readonly tables: HandleTables
  /** The peer's promises still pending here, by id (held until they settle). */
  private readonly deferreds = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>()
  private readonly mirrors = new WeakMap<AbortSignal, AbortController>()
  private readonly targets = new WeakMap<object, object>()
  /** Our signals that already tell the peer when they abort. */
  readonly watched = new WeakSet<AbortSignal>()

  constructor(private readonly host: CodecHost) {
    this.tables = new HandleTables((id, gen) => host.released(id, gen))
  }

  encode(value: unknown): Encoded {
    return this.encodeList([value])[0]!
  }

  decode(encoded: unknown): unknown {
    return this.decodeList([encoded])[0]
  }

  /** Several values of one message (a call's arguments): shared objects are sent once. */
  encodeList(values: readonly unknown[]): Encoded[] {
    const encoding = new Encoding(this, this.host)
    return values.map((v) => encoding.value(v))
  }

  decodeList(list: readonly unknown[]): unknown[] {
    const decoding = new Decoding(this, this.host)
    const values = list.map((e) => decoding.value(e))
    decoding.finish()
    return values
  }

  /** The peer's promise `id` settled. */
  settle(id: number, outcome: { value: unknown } | { error: unknown }): void {
    const deferred = this.deferreds.get(id)
    if (!deferred) return
    this.deferreds.delete(id)
    if ('error' in outcome) deferred.reject(outcome.error)
    else deferred.resolve(outcome.value)
  }

  /** The peer's signal `id` aborted. */
  abort(id: number, reason: unknown): void {
    const signal = this.tables.copy(id) as AbortSignal | undefined
    if (signal) this.mirrors.get(signal)?.abort(reason)
  }

  /** Every pending promise of the peer rejects with `error` (the peer is gone). */
  rejectAll(error: Error): void {
    const pending = [...this.deferreds.values()]
    this.deferreds.clear()
    for (const deferred of pending) deferred.reject(error)
  }

  /** @internal */ newDeferred(id: number, gen: number): Promise<unknown> {
    let parts!: { resolve(v: unknown): void; reject(e: unknown): void }
    const promise = new Promise<unknown>((resolve, reject) => (parts = { resolve, reject }))
    promise.catch(() => undefined)
    this.deferreds.set(id, parts)
    this.tables.keepCopy(id, promise, gen)
    return promise
  }

  /** @internal */ newMirror(id: number, gen: number, aborted: boolean, reason: unknown): AbortSignal {
    const controller = new AbortController()
    if (aborted) controller.abort(reason)
    this.mirrors.set(controller.signal, controller)
    this.tables.keepCopy(id, controller.signal, gen)
    return controller.signal
  }

  /** @internal The object a copy's properties live on (the proxy's target for write-through copies). */
  targetOf(copy: object): object {
    return this.targets.get(copy) ?? copy
  }

  /** @internal */ newObjectCopy(id: number, gen: number, shell: object, writeThrough: boolean): object {
    const copy = writeThrough && this.host.mutate ? writeThroughProxy(shell, id, this.host) : shell
    if (copy !== shell) this.targets.set(copy, shell)
    this.tables.keepCopy(id, copy, gen)
    return copy
  }
}

/** One outgoing value: objects met twice in it are sent once (`seen`). */
class Encoding {
  private readonly seen = new Set<number>()

  constructor(
    private readonly codec: Codec,
    private readonly host: CodecHost,
  ) {}

  value(value: unknown): Encoded {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value
      case 'number':
        if (Number.isFinite(value) && !Object.is(value, -0)) return value
        return { $: 'number', value: Object.is(value, -0) ? '-0' : String(value) }
      case 'bigint':
        return { $: 'bigint', value: value.toString() }
      case 'undefined':
        return { $: 'undefined' }
      case 'symbol':
        return this.symbol(value)
      case 'function':
        return this.handle(value, () => ({ $: 'function', name: functionName(value) }))
      default:
        return value === null ? null : this.object(value as object)
    }
  }

  private symbol(symbol: symbol): Encoded {
    const named = symbolByName(symbol)
    if (named) return { $: 'symbol', ...named }
    return this.handle(symbol, () => ({ $: 'symbol', description: symbol.description ?? null }))
  }

  /** A thing crossing by handle: a `ref` when it is the peer's, else ours by id. */
  private handle(thing: Thing, describe: (fresh: boolean, id: number) => { $: string; [k: string]: unknown }): Encoded {
    const peerId = this.codec.tables.peerIdOf(thing)
    if (peerId !== undefined) return { $: 'ref', id: peerId }
    const { id, fresh } = this.codec.tables.send(thing)
    return { ...describe(fresh, id), id }
  }

  private object(object: object): Encoded {
    const peerId = this.codec.tables.peerIdOf(object)
    if (peerId !== undefined) return { $: 'ref', id: peerId }
    if (types.isPromise(object)) return this.handle(object, (fresh, id) => (fresh && this.watchPromise(object, id), { $: 'promise' }))
    if (object instanceof AbortSignal) {
      return this.handle(object, (fresh, id) => {
        if (fresh && !this.codec.watched.has(object)) this.watchSignal(object, id)
        return object.aborted ? { $: 'signal', aborted: true, reason: this.value(object.reason) } : { $: 'signal', aborted: false }
      })
    }
    const ownId = this.codec.tables.peekOwn(object)
    if (ownId !== undefined && this.seen.has(ownId)) return { $: 'seen', id: ownId }
    const { id } = this.codec.tables.send(object)
    this.seen.add(id)
    const base = { id, ...integrityOf(object), ...(types.isProxy(object) ? { proxy: true } : {}) }
    if (Array.isArray(object)) return { $: 'array', ...base, ...this.arrayParts(object) }
    if (types.isDate(object)) return { $: 'date', ...base, time: (object as Date).getTime() }
    if (types.isRegExp(object)) return { $: 'regexp', ...base, source: (object as RegExp).source, flags: (object as RegExp).flags }
    if (types.isMap(object)) return { $: 'map', ...base, entries: [...(object as Map<unknown, unknown>)].map(([k, v]) => [this.value(k), this.value(v)]) }
    if (types.isSet(object)) return { $: 'set', ...base, values: [...(object as Set<unknown>)].map((v) => this.value(v)) }
    if (types.isBoxedPrimitive(object)) return { $: 'boxed', ...base, value: this.value((object as { valueOf(): unknown }).valueOf()) }
    if (types.isNativeError(object) || object instanceof Error) return { $: 'error', ...base, ...this.errorParts(object as Error) }
    const proto = prototypeName(object)
    return { $: 'object', ...base, ...(proto !== undefined ? { proto } : {}), props: this.props(object, () => true) }
  }

  private arrayParts(array: unknown[]): { items: Encoded[]; props?: EncodedProp[] } {
    const items: Encoded[] = []
    for (let i = 0; i < array.length; i++) {
      const descriptor = Object.getOwnPropertyDescriptor(array, i)
      items.push(descriptor && 'value' in descriptor ? this.value(descriptor.value) : { $: 'hole' })
    }
    const isItem = (key: string | symbol) => key === 'length' || (typeof key === 'string' && isIndex(key) && 'value' in (Object.getOwnPropertyDescriptor(array, key) ?? {}))
    const props = this.props(array, (key) => !isItem(key))
    return props.length > 0 ? { items, props } : { items }
  }

  private errorParts(error: Error): { class: string; name: string; message: string; stack?: string; props: EncodedProp[] } {
    const read = (get: () => unknown) => {
      try {
        return String(get())
      } catch {
        return ''
      }
    }
    const stack = Object.getOwnPropertyDescriptor(error, 'stack')?.value
    return {
      class: read(() => Object.getPrototypeOf(error)?.constructor?.name ?? 'Error'),
      name: read(() => error.name),
      message: read(() => error.message),
      ...(typeof stack === 'string' ? { stack } : {}),
      props: this.props(error, (key) => key !== 'stack' && key !== 'message'),
    }
  }

  private props(object: object, include: (key: string | symbol) => boolean): EncodedProp[] {
    const integrity = integrityOf(object).integrity
    const out: EncodedProp[] = []
    for (const key of Reflect.ownKeys(object)) {
      if (!include(key)) continue
      const d = Object.getOwnPropertyDescriptor(object, key)
      if (!d) continue
      const prop: EncodedProp = { key: this.value(key) }
      if ('value' in d) prop.value = this.value(d.value)
      else {
        if (d.get) prop.get = this.value(d.get)
        if (d.set) prop.set = this.value(d.set)
      }
      if (!d.enumerable) prop.enumerable = false
      if ('value' in d && !d.writable && integrity !== 'frozen') prop.writable = false
      if (!d.configurable && integrity !== 'frozen' && integrity !== 'sealed') prop.configurable = false
      out.push(prop)
    }
    return out
  }

  private watchPromise(promise: Promise<unknown>, id: number): void {
    promise.then(
      (value) => this.codec.tables.isShared(id) && this.host.settled(id, { value }),
      (error: unknown) => this.codec.tables.isShared(id) && this.host.settled(id, { error }),
    )
  }

  private watchSignal(signal: AbortSignal, id: number): void {
    this.codec.watched.add(signal)
    signal.addEventListener('abort', () => this.codec.tables.isShared(id) && this.host.aborted(id, signal.reason), { once: true })
  }
}

/** One incoming value: `seen` objects resolve within it; integrity is applied once it is built. */
class Decoding {
  private readonly seen = new Map<number, unknown>()
  private readonly integrity: [object, Integrity][] = []

  constructor(
    private readonly codec: Codec,
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
      case 'function':
        return this.known(e.id!) ?? this.kept(e.id!, stub(this.host, e.id!, String(e.name ?? '')))
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
      case 'array':
        return new Array((e.items as unknown[]).length)
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
function writeThroughProxy(shell: object, id: number, host: CodecHost): object {
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

function functionName(fn: Function): string {
  try {
    return String(fn.name).replace(/^bound /, '')
  } catch {
    return ''
  }
}

function integrityOf(object: object): { integrity?: Integrity } {
  if (Object.isFrozen(object)) return { integrity: 'frozen' }
  if (Object.isSealed(object)) return { integrity: 'sealed' }
  if (!Object.isExtensible(object)) return { integrity: 'nonextensible' }
  return {}
}

function prototypeName(object: object): 'null' | { class: string } | undefined {
  const proto = Object.getPrototypeOf(object)
  if (proto === Object.prototype) return undefined
  if (proto === null) return 'null'
  let name = 'Object'
  try {
    const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value
    if (typeof ctor === 'function' && ctor.name) name = ctor.name
  } catch {
    // an unreadable prototype is still not a plain object
  }
  return { class: name }
}

function isIndex(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1
}
