/**
 * The value codec: any JavaScript value as JSON, for one side of the protocol. JSON primitives
 * cross as themselves; everything else is a tagged object `{"$": tag, ...}` (see README.md beside
 * this file, "Values"). Objects carry an id so the same object arrives as the same copy (identity,
 * shared references, cycles), with their own properties as descriptors (getters cross as
 * functions, non-enumerable and symbol keys survive) and their integrity level (a frozen object
 * arrives frozen). Functions, symbols, promises and abort signals cross as handles owned by the
 * sender; a copy sent back arrives as the original (`ref`).
 */
import { Decoding, writeThroughProxy } from './decoding.js'
import { Encoding } from './encoding.js'
import { HandleTables } from './handle-tables.js'
import type { CodecHost, CodecState, Encoded } from './wire-types.js'

export type { CodecHost, CodecState, Encoded, EncodedProp, Integrity } from './wire-types.js'

export class Codec implements CodecState {
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
