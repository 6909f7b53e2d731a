/**
 * A line transport as the protocol peer sees it: lines out, lines in — either blocking (while a
 * synchronous call waits for its answer) or delivered when this thread is idle.
 */
import type { ServerEnd } from './protocol-error.js'

/** `ended`: the other side's process ended on its own (not killed by this side). */
export type Incoming = { line: string } | { closed: string; ended?: ServerEnd }

export interface Transport {
  send(line: string): void
  /** Blocks until something arrives, or returns undefined after `timeoutMs` of silence. */
  receiveSync(timeoutMs: number): Incoming | undefined
  /** What arrives while this thread is idle (not blocked in receiveSync). */
  onIdle(handler: (incoming: Incoming) => void): void
  /** Ends the other side for good (kills a server process). */
  kill(reason?: string): void
  close(): void
}
