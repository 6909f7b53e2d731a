/**
 * The codec's wire shapes and what encoding and decoding need of the codec they serve — apart
 * from the codec itself, so the codec imports its two halves and they import only this.
 */
import type { HandleTables } from './handle-tables.js'

export type Encoded = null | boolean | number | string | { $: string; [key: string]: unknown }

export interface EncodedProp {
  key: Encoded
  value?: Encoded
  get?: Encoded
  set?: Encoded
  enumerable?: false
  writable?: false
  configurable?: false
}

export type Integrity = 'frozen' | 'sealed' | 'nonextensible'

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

/** The codec's state that one encoding or decoding pass works on. */
export interface CodecState {
  readonly tables: HandleTables
  readonly watched: WeakSet<AbortSignal>
  newDeferred(id: number, gen: number): Promise<unknown>
  newMirror(id: number, gen: number, aborted: boolean, reason: unknown): AbortSignal
  newObjectCopy(id: number, gen: number, shell: object, writeThrough: boolean): object
  targetOf(copy: object): object
}
