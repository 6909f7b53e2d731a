/**
 * What a process running the implementation leaves behind for its supervisor when it ends in a
 * way no message can carry: the record of a blocked event loop (written by the watchdog thread),
 * the clause, case and stage it was on last (kept current by the same thread), the watchdog
 * thread's judgement when it killed the process, and the record of a process.exit the
 * implementation called (written synchronously, just before the exit). All live in one folder
 * per process. Every duration here is the process's own time (safe/own-time.mjs).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerEnd } from '../protocol/protocol-error.js'

/** The longest the implementation may block the event loop (the reference's longest stretch is far below it). */
export const DEFAULT_CASE_TIMEOUT_MS = 5_000

/** What one request to a process running the implementation may take, in the process's own time. */
export interface WatchLimits {
  /** No heartbeat for this long = a blocked event loop. */
  silenceMs: number
  /** The whole request may take this long (for work that may hang asynchronously). */
  deadlineMs?: number
  /** One case may take this long (a promise of the implementation that never settles). */
  caseDeadlineMs?: number
}

/**
 * Where the watchdog writes, after how long a blocked event loop is recorded (with `kill`: ends
 * the process), and the limits past which it kills its own process (until the first request).
 */
export interface WatchdogConfig {
  dir: string
  blockedAfterMs: number
  kill?: boolean
  limits?: WatchLimits
}

/** Why the watchdog thread killed its own process, and the silence and case time it judged. */
export interface KilledRecord {
  killed: 'blocked' | 'deadline'
  silentMs: number
  caseMs: number
}

/** The property running, and the case it was on (when the case is cheap to keep). */
export interface RunningCase {
  clause: string
  title: string
  /** 1-based number of the case within the property's run (corpus cases, generation, shrinking). */
  caseNumber?: number
  /** fast-check's path to the case when it is a generated one (before any failure). */
  path?: string
  /** The case as JSON text. */
  case?: string
}

export interface BlockedRecord extends RunningCase {
  blockedMs: number
  /** The stage the interpreter entered last ("body#0 of c1"), if the property runs scenarios. */
  stage?: string
}

/**
 * What escaped the implementation's calls; a report row names it (`escape`). `server exit`: the
 * protocol server (`--command`) exited, was ended by a signal, or hung and was killed. `process
 * control`: the implementation reached for the harness's own process controls — `process.send`
 * or `process.disconnect` on the IPC channel to the supervisor, `process.kill` of its parent or a
 * process group — or wrote a message of its own on that channel.
 */
export type EscapeKind =
  | 'uncaught exception' | 'unhandled rejection' | 'process.exit' | 'changed globals' | 'child exit' | 'server exit' | 'process control'

export const ESCAPE_KINDS: readonly EscapeKind[] = [
  'uncaught exception', 'unhandled rejection', 'process.exit', 'changed globals', 'child exit', 'server exit', 'process control',
]

export interface Escape {
  kind: EscapeKind
  detail: string
  /** Where it belongs: the case that scheduled it, else the property running; none = the harness's. */
  at?: RunningCase
  /** The stage the interpreter entered last when it happened. */
  stage?: string
  /** The process running the implementation ended with it: how (its verdict's `ended`). */
  ended?: ServerEnd
}

/** The clause, case and stage a process was on last. */
export interface WhereRecord {
  clause?: string
  title?: string
  caseNumber?: number
  stage?: string
}

/** A process.exit the implementation called: the escape, with the case it was in. */
export type ExitRecord = Escape

export const watchdogFiles = (dir: string) => ({
  blocked: join(dir, 'blocked.json'),
  stage: join(dir, 'stage.json'),
  exit: join(dir, 'exit.json'),
  killed: join(dir, 'killed.json'),
})

export const readBlocked = (dir: string) => readJson<BlockedRecord>(watchdogFiles(dir).blocked)
export const readWhere = (dir: string) => readJson<WhereRecord>(watchdogFiles(dir).stage)
export const readExit = (dir: string) => readJson<ExitRecord>(watchdogFiles(dir).exit)
export const readKilled = (dir: string) => readJson<KilledRecord>(watchdogFiles(dir).killed)

function readJson<T>(file: string): T | undefined {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined
  } catch {
    return undefined
  }
}
