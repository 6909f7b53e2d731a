/**
 * The children that run the implementation for one certification run, and the clauses handed
 * out to them: each child holds one clause at a time, a child that dies is replaced by a fresh
 * one, and the verdicts come back in suite order whatever the parallelism. The run's time budget
 * lives here too, and the rule for a misbehaviour that repeats: once a clause blocked the event
 * loop, the rest of its family is judged from it without running, and every other clause may
 * stay silent for only REPEAT_SILENCE_MS — a blocking implementation costs one full timeout,
 * not one per clause. Silences and deadlines are the child's own time (safe/own-time.mjs): a
 * child starved of CPU by other processes is not silent.
 */
import { AdapterLoadError } from '../safe/load-adapter.js'
import type { AdapterIdentity } from './child-messages.js'
import type { CorpusCase } from '../store/corpus.js'
import { budgetVerdict, deathVerdict, judgedFromFamily } from '../engine/death-verdicts.js'
import type { ResolvedRun } from '../engine/resolve-run.js'
import { DEFAULT_MAX_OLD_SPACE_MB, runsFor } from '../engine/resolve-run.js'
import { isDeath, SupervisedChild, type ChildDeath } from './supervised-child.js'
import { makeRunFolder, removeRunFolder, sweepStaleRunFolders } from './run-folder.js'
import { infoVerdict, type PropertyInfo, type Verdict } from '../engine/verdict.js'
import type { Escape } from '../watchdog/record.js'
import { millisecondsFromEnv } from '../safe/env-milliseconds.js'
import { tellHeld } from './launcher-link.mjs'

/** Once a clause blocked the event loop (or hung a case), every later clause may stay silent only this long. */
export const REPEAT_SILENCE_MS = 2_000
/**
 * One case may take this many silences (30 s of own time by default) before its child is killed: a
 * promise that never settles where the harness has no time budget of its own (create(), say). The
 * reference's longest case took 0.7 s on a loaded 2-core machine.
 */
export const CASE_DEADLINE_FACTOR = 6
/**
 * With --command the child waits for the server's handshake synchronously (harness/protocol/,
 * 20 s by default): loading may stay silent that long, and a margin.
 */
const HANDSHAKE_SILENCE_MS = 25_000
/**
 * Loading the adapter may stay silent at least this long, whatever the case timeout: tsx resolves
 * each of its modules with a synchronous wait on its loader thread, seconds on a loaded machine
 * (own time of the waiting main thread, whoever starves the loader thread). Overridable with
 * TOOLREG_LOAD_SILENCE_MS.
 */
const LOAD_SILENCE_MS = millisecondsFromEnv('TOOLREG_LOAD_SILENCE_MS', 5_000)

export interface Preflight {
  adapter: AdapterIdentity
  properties: PropertyInfo[]
  seamErrors: string[]
}

export interface RoundRequest {
  seed: number
  properties: readonly PropertyInfo[]
  examples: (clause: string) => Promise<CorpusCase[]>
  onVerdict?: (verdict: Verdict) => void
}

const familyOf = (clause: string) => clause.split('-')[0] ?? clause

export class ChildPool {
  private readonly slots: (SupervisedChild | undefined)[]
  private deadline = Infinity
  private budgetTimer: NodeJS.Timeout | undefined
  private expired = false
  /** The first clause of each family that blocked the event loop: the family's later clauses are judged from it. */
  private readonly blockedFamilies = new Map<string, Verdict>()
  /** Some clause of this run blocked or hung: later clauses get the short silence, in every round. */
  private stuckOnce = false
  private adapterName = 'adapter'
  private escapes: Escape[] = []
  /** The clauses handed to a child and not yet answered. */
  private readonly checking = new Set<string>()
  private readonly runDir: string

  constructor(
    private readonly run: ResolvedRun,
    slots: number,
  ) {
    sweepStaleRunFolders()
    this.runDir = makeRunFolder()
    this.slots = Array.from({ length: Math.max(1, slots) }, () => this.spawn())
  }

  /** The time budget counts from here: the clauses', once the adapter is known to load. */
  startBudget(): void {
    this.deadline = Date.now() + this.run.timeBudgetMs
    this.budgetTimer = setTimeout(() => this.expire(), this.run.timeBudgetMs)
    this.budgetTimer.unref()
  }

  get budgetLeft(): boolean {
    return !this.expired && Date.now() < this.deadline
  }

  /** The first child loads the adapter and runs create()/dispose() once; any trouble is one line, exit 2. */
  async preflight(): Promise<Preflight> {
    const child = this.slots[0]!
    const ready = await child.ready
    if (isDeath(ready)) throw new AdapterLoadError(child.beganBeating ? `loading the adapter: ${endText(ready)}` : this.noStart(ready))
    if (ready.type === 'load-error') throw new AdapterLoadError(ready.error)
    if (ready.type !== 'ready') throw new AdapterLoadError(`the child sent ${ready.type} before ready`)
    this.adapterName = ready.adapter.name
    const limits = { silenceMs: this.run.caseTimeoutMs, deadlineMs: 3 * this.run.caseTimeoutMs }
    const answer = await child.request({ type: 'preflight', limits })
    const name = `adapter ${ready.adapter.name}`
    if (isDeath(answer)) throw new AdapterLoadError(`${name}: create() and dispose() once (preflight): ${endText(answer)}`)
    if (answer.type !== 'preflight') throw new AdapterLoadError(`${name}: the child answered the preflight with ${answer.type}`)
    if (!answer.ok) throw new AdapterLoadError(answer.error)
    return { adapter: ready.adapter, properties: ready.properties, seamErrors: answer.seamErrors }
  }

  /**
   * A child that died before its first heartbeat never reached the adapter (the first goes out
   * before it loads): the harness could not start, and a heap cap below the default is the likely
   * cause (`--max-heap 1` ends V8 at start-up with SIGTRAP).
   */
  private noStart(death: ChildDeath): string {
    const how = howItEnded(death)
    const { maxOldSpaceMb } = this.run
    if (maxOldSpaceMb >= DEFAULT_MAX_OLD_SPACE_MB) return `the child process ${how} before it loaded the harness, before the adapter`
    return `--max-heap ${maxOldSpaceMb}: the child process ${how} before it loaded the harness (the adapter never ran); `
      + `the heap cap is too small to start it (the default is ${DEFAULT_MAX_OLD_SPACE_MB})`
  }

  /** Children beyond what the clauses need are stopped. */
  async trim(needed: number): Promise<void> {
    const extra = this.slots.splice(Math.max(1, needed))
    await Promise.all(extra.map((c) => c?.stop()))
  }

  /** Checks every property of the round; one verdict each, in the order given. */
  async round(request: RoundRequest): Promise<Verdict[]> {
    this.blockedFamilies.clear() // each round (seed) judges its own families
    const queue = [...request.properties]
    const verdicts = new Map<string, Verdict>()
    const judged = (verdict: Verdict) => {
      verdicts.set(verdict.clause, verdict)
      request.onVerdict?.(verdict)
    }
    const work = async (slot: number) => {
      for (let property = queue.shift(); property; property = queue.shift()) {
        if (!this.budgetLeft) return judged(budgetVerdict(property))
        const first = this.blockedFamilies.get(familyOf(property.id))
        judged(first ? judgedFromFamily(property, first) : await this.check(slot, property, request))
      }
    }
    await Promise.all(this.slots.map((_, slot) => work(slot)))
    for (const property of queue) judged(budgetVerdict(property))
    return request.properties.map((p) => verdicts.get(p.id) ?? budgetVerdict(p))
  }

  /** The escapes children reported since the last call. */
  takeEscapes(): Escape[] {
    const taken = this.escapes
    this.escapes = []
    return taken
  }

  async close(): Promise<void> {
    clearTimeout(this.budgetTimer)
    // Removed while the children live: this process killed after they exited would leave it to nobody.
    // A stopping child's records are not read.
    removeRunFolder(this.runDir)
    try {
      await Promise.all(this.slots.map((c) => c?.stop()))
    } finally {
      removeRunFolder(this.runDir)
    }
  }

  /** The clauses the children hold now, with the stage each entered last: what a signal interrupted. */
  inFlight(): string[] {
    return this.slots.flatMap((child) => {
      const held = child?.holdingNow()
      return held ? [`${held.clause}${held.stage ? ` (stage ${held.stage})` : ''}`] : []
    })
  }

  /** At once, for a run ended by a signal: every child's process tree killed, the run folder removed. */
  abandon(): void {
    clearTimeout(this.budgetTimer)
    for (const child of this.slots) child?.endNow()
    removeRunFolder(this.runDir)
  }

  private async check(slot: number, property: PropertyInfo, request: RoundRequest): Promise<Verdict> {
    const child = await this.readyChild(slot)
    if (isDeath(child)) return this.judgeDeath(property, child, request.seed)
    const examples = await request.examples(property.id)
    const allowed = this.stuckOnce ? Math.min(this.run.caseTimeoutMs, REPEAT_SILENCE_MS) : this.run.caseTimeoutMs
    // With --command a case may restart the server, whose handshake the child waits for synchronously
    // (the protocol bounds it, and every reply, itself): that silence is the harness's, not a blocked loop.
    const silenceMs = this.run.target.command ? Math.max(allowed, HANDSHAKE_SILENCE_MS) : allowed
    const limits = { silenceMs, caseDeadlineMs: Math.max(CASE_DEADLINE_FACTOR * allowed, silenceMs) }
    const runs = runsFor(this.run, property)
    const run = { type: 'run', clause: property.id, seed: request.seed, runs, examples, limits } as const
    const answer = await this.holding(property.id, () => child.request(run))
    if (isDeath(answer)) return this.judgeDeath(property, answer, request.seed)
    // A protocol server that hung fails its clause in the child, which lives on: the same rule applies.
    if (answer.type === 'verdict' && answer.verdict.clause === property.id) return this.noteStuck(property, answer.verdict)
    child.kill('blocked')
    return { ...infoVerdict(property), status: 'error', error: `the child answered ${property.id} with ${answer.type}` }
  }

  private judgeDeath(property: PropertyInfo, death: ChildDeath, seed: number): Verdict {
    // An exit a clause judged earlier left behind (a timer) fails that clause too.
    if (death.exit?.at && death.exit.at.clause !== property.id) this.escapes.push(death.exit)
    if (death.ended.killed === 'budget') return budgetVerdict(property)
    const died = deathVerdict(property, death, { adapter: this.adapterName, seed, maxOldSpaceMb: this.run.maxOldSpaceMb })
    // An escape the child reported before it died (changed globals that kept the case from settling) names the cause.
    const cause = died.escape ? undefined : this.escapes.find((e) => e.at?.clause === property.id)
    const verdict: Verdict = cause ? { ...died, escape: cause.kind, ...(died.stage || !cause.stage ? {} : { stage: cause.stage }) } : died
    return this.noteStuck(property, verdict)
  }

  /**
   * While `ask()` is answered, `clause` is held: the launcher is told (supervisor/launcher-link.mjs)
   * before the child is asked, since a starved supervisor may be killed between two writes.
   */
  private async holding<T>(clause: string, ask: () => Promise<T>): Promise<T> {
    this.checking.add(clause)
    tellHeld([...this.checking])
    try {
      return await ask()
    } finally {
      this.checking.delete(clause)
      tellHeld([...this.checking])
    }
  }

  /** A clause that blocked or hung: its family is judged from it, and later clauses get the short silence. */
  private noteStuck(property: PropertyInfo, verdict: Verdict): Verdict {
    const stuck = verdict.ended?.killed === 'blocked' || verdict.ended?.killed === 'deadline'
    if (stuck && !this.blockedFamilies.has(familyOf(property.id))) this.blockedFamilies.set(familyOf(property.id), verdict)
    this.stuckOnce ||= stuck
    return verdict
  }

  /** The slot's child, started afresh when the last one died. */
  private async readyChild(slot: number): Promise<SupervisedChild | ChildDeath> {
    let child = this.slots[slot]
    if (!child?.alive) this.slots[slot] = child = this.spawn()
    const ready = await child.ready
    if (isDeath(ready)) return ready
    if (ready.type !== 'ready') {
      child.kill('blocked')
      return { ended: { exitCode: null, signal: null }, silentMs: 0 }
    }
    return child
  }

  private spawn(): SupervisedChild {
    return new SupervisedChild({
      target: this.run.target,
      runDir: this.runDir,
      stallReportMs: Math.min(1_000, this.run.caseTimeoutMs / 2),
      loadSilenceMs: Math.max(this.run.caseTimeoutMs, this.run.target.command ? HANDSHAKE_SILENCE_MS : LOAD_SILENCE_MS),
      maxOldSpaceMb: this.run.maxOldSpaceMb,
      onEscape: (escape) => this.escapes.push(escape),
      onIdleDeath: (death) => this.escapes.push(idleDeathEscape(death)),
      onStray: (clause) => this.escapes.push(strayEscape(clause)),
    })
  }

  private expire(): void {
    this.expired = true
    for (const child of this.slots) child?.kill('budget')
  }
}

/** A child that ended between clauses: the exit record names the clause whose timer did it, if any. */
function idleDeathEscape(death: ChildDeath): Escape {
  if (death.exit) return death.exit
  return { kind: 'child exit', detail: `${endText(death)} between clauses` }
}

/** A message of no known shape on the channel: the implementation's, failing the clause the child held (else the run's). */
function strayEscape(clause: string | undefined): Escape {
  const detail = 'the child running the implementation sent a message the harness does not know on its IPC channel (ignored)'
  return { kind: 'process control', detail, ...(clause ? { at: { clause, title: clause } } : {}) }
}

function howItEnded(death: ChildDeath): string {
  const { ended } = death
  if (ended.outOfMemory) return 'ran out of memory'
  if (ended.killed === 'blocked') return `blocked its event loop for over ${Math.round(death.silentMs / 1000)} s and was killed`
  if (ended.killed === 'deadline') return 'did not settle in time and was killed'
  if (ended.killed === 'budget') return 'was stopped by the time budget'
  return ended.signal ? `was killed by ${ended.signal}` : `exited with code ${ended.exitCode}`
}

function endText(death: ChildDeath): string {
  const stage = death.exit?.stage ?? death.where?.stage
  return `the child process running the implementation ${howItEnded(death)}${stage ? ` in stage ${stage}` : ''}${death.exit ? ` (${death.exit.detail})` : ''}`
}
