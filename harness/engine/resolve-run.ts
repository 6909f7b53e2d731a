/**
 * The one place a certification run's options are resolved: defaults, bounds, the seed formula
 * and the selection of properties. The result is frozen (in the way fast-check's
 * QualifiedParameters are) and every later step only reads it: the CLI's supervisor, the children
 * it hands clauses to, and `defineConformanceSuite` in a user's own vitest.
 */
import { resolve } from 'node:path'
import { availableParallelism } from 'node:os'
import type { ConformanceAdapter } from '../contract/adapter.js'
import { CLAUSE_IDS } from '../contract/clauses.js'
import { missingSeam } from '../seams.js'
import { inShard, type Shard } from './shard.js'
import { DEFAULT_CASE_TIMEOUT_MS } from '../watchdog/record.js'

export const DEFAULT_RUNS = 100
export { DEFAULT_CASE_TIMEOUT_MS }
export const DEFAULT_TIME_BUDGET_MS = 30 * 60_000
/** The heap cap of a child running the implementation (--max-old-space-size, in MB). */
export const DEFAULT_MAX_OLD_SPACE_MB = 1024
/**
 * The memory a child may hold in RAM, all of it (Buffers and native memory outside the heap
 * included): twice its heap cap and 512 MB more — the reference's children hold about 150 MB.
 */
export const processMemoryCapMb = (maxOldSpaceMb: number) => 2 * maxOldSpaceMb + 512

/**
 * Cases a child runs in about the time a second child takes to start (some 0.35 s of CPU): a run
 * of fewer cases than this per child gets no more children by default, since on a loaded machine
 * a child that only starts costs more than it saves.
 */
export const CASES_PER_CHILD = 150

/** The default number of children: two (or fewer cores), one per CASES_PER_CHILD cases of the clauses named. */
function defaultWorkers(options: RunOptions, runs: number): number {
  const cores = Math.min(2, availableParallelism())
  const named = new Set(options.clauses ?? []).size
  if (named === 0 || (options.durationMs ?? 0) > 0) return cores
  return Math.max(1, Math.min(cores, Math.ceil((named * runs) / CASES_PER_CHILD)))
}

export class InvalidRunOptions extends Error {}

/** What a user may set; everything is optional. */
export interface RunOptions {
  adapter?: string
  command?: string
  validateProtocol?: boolean
  runs?: number
  seed?: number
  clauses?: readonly string[]
  shard?: Shard
  caseTimeoutMs?: number
  timeBudgetMs?: number
  workers?: number
  maxOldSpaceMb?: number
  /** The regression corpus directory (default reports/corpus); false turns it off. */
  corpus?: string | false
  counterexampleDir?: string
  strict?: boolean
  baseline?: string
  durationMs?: number
  coverage?: readonly string[]
}

export interface ResolvedRun {
  /** The implementation: an adapter module (absent = the bundled reference) or a protocol server. */
  readonly target: { readonly adapterPath?: string; readonly command?: string; readonly validateProtocol: boolean }
  readonly seed: number
  readonly runs: number
  /** Clause IDs asked for; empty = every applicable one. */
  readonly clauses: readonly string[]
  readonly shard?: Shard
  readonly caseTimeoutMs: number
  readonly timeBudgetMs: number
  readonly workers: number
  readonly maxOldSpaceMb: number
  readonly corpusDir?: string
  readonly counterexampleDir: string
  readonly strict: boolean
  readonly baseline?: string
  /** Campaign mode: rounds with seed, seed+1, … until this many milliseconds have passed. */
  readonly durationMs: number
  /** Coverage globs ([] = the adapter's folder); absent = no coverage. */
  readonly coverage?: readonly string[]
}

/** The default seed, one formula for every entry point. */
export const defaultSeed = (): number => Date.now() % 2 ** 31

export function resolveRun(options: RunOptions): ResolvedRun {
  const unknown = (options.clauses ?? []).filter((id) => !CLAUSE_IDS.includes(id))
  if (unknown.length > 0) throw new InvalidRunOptions(`unknown clause ID(s): ${unknown.join(', ')}. Valid IDs: ${CLAUSE_IDS.join(' ')}`)
  if (options.adapter && options.command) throw new InvalidRunOptions('give either --adapter or --command, not both')
  const run: ResolvedRun = {
    target: {
      ...(options.adapter ? { adapterPath: resolve(options.adapter) } : {}),
      ...(options.command ? { command: options.command } : {}),
      validateProtocol: options.validateProtocol === true,
    },
    seed: integer('seed', options.seed ?? defaultSeed()),
    runs: positive('runs', options.runs ?? DEFAULT_RUNS),
    clauses: Object.freeze([...new Set(options.clauses ?? [])]),
    ...(options.shard ? { shard: Object.freeze({ ...options.shard }) } : {}),
    caseTimeoutMs: positive('case timeout', options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS),
    timeBudgetMs: positive('time budget', options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS),
    workers: positive('workers', options.workers ?? defaultWorkers(options, options.runs ?? DEFAULT_RUNS)),
    maxOldSpaceMb: positive('max old space', options.maxOldSpaceMb ?? DEFAULT_MAX_OLD_SPACE_MB),
    ...(options.corpus !== false ? { corpusDir: resolve(options.corpus ?? 'reports/corpus') } : {}),
    counterexampleDir: resolve(options.counterexampleDir ?? 'reports/counterexamples'),
    strict: options.strict === true,
    ...(options.baseline ? { baseline: options.baseline } : {}),
    durationMs: Math.max(0, options.durationMs ?? 0),
    ...(options.coverage ? { coverage: Object.freeze([...options.coverage]) } : {}),
  }
  Object.freeze(run.target)
  return Object.freeze(run)
}

function positive(what: string, n: number): number {
  if (!Number.isFinite(n) || n <= 0) throw new InvalidRunOptions(`${what} must be a positive number, got ${n}`)
  return n
}

function integer(what: string, n: number): number {
  if (!Number.isInteger(n)) throw new InvalidRunOptions(`${what} must be an integer, got ${n}`)
  return n
}

/** What selection needs of a property and of the adapter (the supervisor has only their descriptions). */
type Selectable = { id: string; profile: string }
type AdapterShape = Pick<ConformanceAdapter, 'profiles' | 'seams'>

/** The properties this run checks, in suite order: profile, seams, --clause and --shard. */
export function selectProperties<P extends Selectable>(run: Pick<ResolvedRun, 'clauses' | 'shard'>, properties: readonly P[], adapter: AdapterShape): P[] {
  const profiles = new Set<string>(['core', ...adapter.profiles])
  const asked = (id: string) => run.clauses.length === 0 || run.clauses.includes(id)
  return properties.filter((p, i) => inShard(run.shard, i) && profiles.has(p.profile) && missingSeam(p.id, adapter) === undefined && asked(p.id))
}

/** The cases a property runs: the run's depth, capped by the property's own limit. */
export const runsFor = (run: Pick<ResolvedRun, 'runs'>, property: { maxRuns?: number }): number => Math.min(run.runs, property.maxRuns ?? run.runs)
