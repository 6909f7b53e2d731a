export interface OwnClock {
  /** Whether the clock reads the thread's waiting for a CPU (false: it counts wall time). */
  readonly measured: boolean
  /** Own time in milliseconds from an arbitrary origin: only differences mean anything. */
  /** The CPU time the thread ran, as of the last `now()`; undefined when not measured. */
  readonly cpuMs: number | undefined
  now(): number
  close(): void
}
/** The own-time clock of the main thread of process `pid`; without one, of the calling thread. */
export declare function ownClock(pid?: number): OwnClock
/** Calls `fire` once `ms` of the calling thread's own time have passed; returns what cancels it. */
export declare function afterOwnTime(ms: number, fire: () => void): () => void
