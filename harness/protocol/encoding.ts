/** Encoding one outgoing value (see codec.ts): what each kind of value becomes on the wire. */
import { types } from 'node:util'
import type { CodecHost, CodecState, Encoded, EncodedProp, Integrity } from './wire-types.js'
import { symbolByName, type Thing } from './handle-tables.js'

/** One outgoing value: objects met twice in it are sent once (`seen`). */
export class Encoding {
  private readonly seen = new Set<number>()

  constructor(
    private readonly codec: CodecState,
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
        return this.handle(value, () => {
          const props = this.props(value, (key) => !FUNCTION_OWN_KEYS.has(key))
          return { $: 'function', name: functionName(value), ...(props.length > 0 ? { props } : {}) }
        })
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
    if (Array.isArray(object)) {
      const proto = prototypeName(object, Array.prototype)
      return { $: 'array', ...base, ...(proto !== undefined ? { proto } : {}), ...this.arrayParts(object) }
    }
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
    const isItem = (key: string | symbol) => key === 'length' || (
      typeof key === 'string' && isIndex(key) && 'value' in (Object.getOwnPropertyDescriptor(array, key) ?? {})
    )
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

/** What every function has of its own; anything else (a `code`, say) crosses with it. */
const FUNCTION_OWN_KEYS = new Set<string | symbol>(['length', 'name', 'prototype', 'arguments', 'caller'])

function functionName(fn: Function): string {
  try {
    return String(fn.name).replace(/^bound /, '')
  } catch {
    return ''
  }
}

export function integrityOf(object: object): { integrity?: Integrity } {
  if (Object.isFrozen(object)) return { integrity: 'frozen' }
  if (Object.isSealed(object)) return { integrity: 'sealed' }
  if (!Object.isExtensible(object)) return { integrity: 'nonextensible' }
  return {}
}

/** Undefined for a plain object's prototype (or `plain`: Array.prototype for an array); else what the other side rebuilds. */
function prototypeName(object: object, plain: object = Object.prototype): 'null' | { class: string } | undefined {
  const proto = Object.getPrototypeOf(object)
  if (proto === plain) return undefined
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
