/**
 * What a process running the implementation leaves behind for its supervisor when it ends in a
 * way no message can carry: the record of a blocked event loop (written by the watchdog thread),
 * the clause, case and stage it was on last (kept current by the same thread), the watchdog
 * thread's judgement when it killed the process, and the record of a process.exit the
 * implementation called (written synchronously, just before the exit). All live in one folder
 * per process. Every duration here is the process's own time (safe/own-time.mjs).
 */
import { join } from 'node:path'
import { readUntrusted } from '../safe/untrusted-file.mjs'
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

// The implementation runs in the process that writes these files: each is read without blocking,
// capped (a blocked record keeps a case of up to 256 K characters), and kept only in its shape.
export const readBlocked = (dir: string) => readRecord<BlockedRecord>(watchdogFiles(dir).blocked, isBlocked)
export const readWhere = (dir: string) => readRecord<WhereRecord>(watchdogFiles(dir).stage, isWhere)
export const readExit = (dir: string) => readRecord<ExitRecord>(watchdogFiles(dir).exit, isExit)
export const readKilled = (dir: string) => readRecord<KilledRecord>(watchdogFiles(dir).killed, isKilled)

const MAX_RECORD_BYTES = 2 * 1024 * 1024

function readRecord<T>(file: string, is: (value: Data) => boolean): T | undefined {
  const text = readUntrusted(file, MAX_RECORD_BYTES)
  try {
    const value: unknown = text === undefined ? undefined : JSON.parse(text)
    return isData(value) && is(value) ? (value as T) : undefined
  } catch {
    return undefined
  }
}

type Data = Record<string, unknown>
const isData = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value)
const maybe = (value: unknown, type: 'string' | 'number') => value === undefined || typeof value === type
const isJsonText = (value: unknown) => {
  try {
    return value === undefined || (typeof value === 'string' && (JSON.parse(value), true))
  } catch {
    return false
  }
}
const isWhere = (r: Data) => maybe(r.clause, 'string') && maybe(r.title, 'string') && maybe(r.caseNumber, 'number') && maybe(r.stage, 'string')
const isRunning = (r: Data) => typeof r.clause === 'string' && typeof r.title === 'string' && isWhere(r) && maybe(r.path, 'string') && isJsonText(r.case)
const isBlocked = (r: Data) => isRunning(r) && typeof r.blockedMs === 'number'
const isExit = (r: Data) =>
  ESCAPE_KINDS.includes(r.kind as EscapeKind) && typeof r.detail === 'string' && maybe(r.stage, 'string') && r.ended === undefined
  && (r.at === undefined || (isData(r.at) && isRunning(r.at)))
const isKilled = (r: Data) => (r.killed === 'blocked' || r.killed === 'deadline') && typeof r.silentMs === 'number' && typeof r.caseMs === 'number'
