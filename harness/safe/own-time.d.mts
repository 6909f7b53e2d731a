export interface OwnClock {
  /** Whether the clock reads the thread's waiting for a CPU (false: it counts wall time). */
  readonly measured: boolean
  /** The CPU time the thread ran, as of the last `now()`; undefined when not measured. */
  readonly cpuMs: number | undefined
  /** Own time in milliseconds from an arbitrary origin: only differences mean anything. */
  now(): number
  close(): void
}
/** The own-time clock of the main thread of process `pid`; without one, of the calling thread. */
export declare function ownClock(pid?: number): OwnClock
/** The own-time clock of this whole process: wall time less every thread's waiting for a CPU since it was made. */
export declare function processClock(): OwnClock
/**
 * Calls `fire` once `ms` of own time have passed (the calling thread's, or `options.clock`'s), at
 * most `options.atMostMs` of wall time after the call; returns what cancels it.
 */
export declare function afterOwnTime(ms: number, fire: () => void, options?: { clock?: OwnClock; atMostMs?: number }): () => void
