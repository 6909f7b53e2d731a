/**
 * What the worker running the suites leaves behind for the host (`toolreg certify`) when things
 * go wrong in ways a test verdict cannot carry: the record of a blocked event loop (written by
 * the watchdog thread just before it kills the worker), the property that was running (in case
 * the worker dies some other way), and escapes (uncaught exceptions, unhandled rejections,
 * process.exit, changed globals), one JSON line each. All live in one folder per run.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** How the host tells the worker where to write, and how long a blocked event loop may last. */
export interface WatchdogConfig {
  dir: string
  blockedAfterMs: number
}

declare module 'vitest' {
  export interface ProvidedContext {
    toolregWatchdog?: WatchdogConfig
  }
}

export const DEFAULT_BLOCKED_AFTER_MS = 10_000

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

export interface Escape {
  kind: 'uncaught exception' | 'unhandled rejection' | 'process.exit' | 'changed globals'
  detail: string
  /** Where it belongs: the case that scheduled it, else the property running; none = the harness's. */
  at?: RunningCase
}

export const watchdogFiles = (dir: string) => ({
  blocked: join(dir, 'blocked.json'),
  running: join(dir, 'running.json'),
  escapes: join(dir, 'escapes.jsonl'),
})

export function readBlocked(dir: string): BlockedRecord | undefined {
  return readJson<BlockedRecord>(watchdogFiles(dir).blocked)
}

export function readRunning(dir: string): RunningCase | undefined {
  return readJson<RunningCase>(watchdogFiles(dir).running)
}

export function readEscapes(dir: string): Escape[] {
  const file = watchdogFiles(dir).escapes
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Escape]
      } catch {
        return [] // a line cut short by a dying worker
      }
    })
}

function readJson<T>(file: string): T | undefined {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined
  } catch {
    return undefined
  }
}
