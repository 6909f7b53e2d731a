/** Real time, for the properties that run a registry's own timers (the timeout policy) or wait on an abort: no scheduler owns them. */
import type { ConformanceAdapter } from '../harness/contract/adapter.js'
import { isRemote } from '../harness/property/vocabulary.js'

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Settles when `signal` aborts. */
export const abortOf = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))

/** Settles once `signal` is aborted: at once if it is already. */
export const untilAborted = (signal: AbortSignal): Promise<void> => (signal.aborted ? Promise.resolve() : abortOf(signal))

/** How late an abort may arrive at a body that ignores its signal, on a loaded machine. */
export const DELIVERY_GRACE_MS = 2_000

/**
 * Waits for an abort that may still be on its way: across a process boundary for as long as
 * DELIVERY_GRACE_MS, in process for two turns of the event loop (a relay through setImmediate).
 */
export async function abortDelivered(adapter: ConformanceAdapter, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return
  if (isRemote(adapter)) return void (await Promise.race([abortOf(signal), sleep(DELIVERY_GRACE_MS)]))
  for (let turn = 0; turn < 2 && !signal.aborted; turn++) await new Promise((resolve) => setImmediate(resolve))
}
