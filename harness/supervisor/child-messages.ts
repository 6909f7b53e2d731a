/**
 * The messages between the supervisor (`toolreg certify`) and a child running the implementation,
 * over Node's IPC channel. The child also leaves files for the case it cannot send anything
 * (watchdog-record.ts): a blocked event loop, a process.exit, a sudden death.
 */
import type { Profile } from '../contract/adapter.js'
import type { Seam } from '../contract/seam-names.js'
import type { CorpusCase } from '../store/corpus.js'
import type { PropertyInfo, Verdict } from '../engine/verdict.js'
import type { Escape, WatchLimits } from '../watchdog/record.js'

/** What a child is told first (`init`): it may have been started before the run was resolved (early-child.mjs). */
export interface ChildInit {
  target: { adapterPath?: string; command?: string; validateProtocol: boolean }
  /** Where the watchdog files go (one folder per child). */
  stateDir: string
  /** How long the event loop may stall before the watchdog thread writes the blocked record. */
  stallReportMs: number
  /** How long loading the adapter may stay silent before the watchdog thread kills the process. */
  loadSilenceMs: number
}

export interface AdapterIdentity {
  name: string
  version?: string
  profiles: Profile[]
  seams?: Seam[]
}

export type ToChild =
  /** The first message: what to load and where the watchdog writes. Answered with `ready` or `load-error`. */
  | { type: 'init'; init: ChildInit }
  /** create() and dispose() once, and the seam check: answered with `preflight`. */
  | { type: 'preflight'; limits: WatchLimits }
  /** Check one clause: answered with `started`, then `verdict`. `limits`: the watchdog's, in own time. */
  | { type: 'run'; clause: string; seed: number; runs: number; examples: CorpusCase[]; limits: WatchLimits }
  /** Close the implementation and exit (coverage is written on a clean exit). */
  | { type: 'stop' }

export type FromChild =
  /** The adapter loaded: who it is and which properties exist, in suite order. */
  | { type: 'ready'; adapter: AdapterIdentity; properties: PropertyInfo[] }
  /** The adapter could not be loaded (a user's input error: exit 2). */
  | { type: 'load-error'; error: string }
  | { type: 'preflight'; ok: true; seamErrors: string[] }
  | { type: 'preflight'; ok: false; error: string }
  | { type: 'started'; clause: string }
  | { type: 'verdict'; verdict: Verdict }
  /** An escape as it happened; one outside any property is a harness error of the run. */
  | { type: 'escape'; escape: Escape }
  /** The event loop is alive; `cases`: how many cases this process has started. */
  | { type: 'beat'; cases: number }

/** How often the child's event loop says it is alive. */
export const HEARTBEAT_MS = 100
