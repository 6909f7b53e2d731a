/**
 * One child process running the implementation, seen from the supervisor: it is started with
 * a heap cap, asked one thing at a time, and judged on what it does rather than on what it says.
 * Silence longer than allowed (a blocked event loop) and a case or request past its deadline are
 * judged in the child's own time (safe/own-time.mjs) by its watchdog thread, which sees the
 * heartbeat with no message queue in between and kills its own process; this side reads the
 * judgement from what the child left behind (watchdog/record.ts). Any exit while a request is
 * open, exit code 0 included, ends the request with a death record. Here only the run's budget
 * kills, and a backstop for a child whose watchdog cannot run (not started yet, or stuck): far
 * longer limits, also in the child's own time, never decided in a check that itself ran late —
 * a starved supervisor runs its timers before it reads the heartbeats queued meanwhile.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ChildInit, FromChild, ToChild } from './child-messages.js'
import { ownClock } from '../safe/own-time.mjs'
import { takeEarly } from './early-child.mjs'
import { endTree } from '../safe/process-tree.mjs'
import { startChild } from './start-child.mjs'
import { readMessage } from './read-message.js'
import { removeRunFolder } from './run-folder.js'
import { residentMemory } from './resident-memory.js'
import { processMemoryCapMb } from '../engine/resolve-run.js'
import type { ChildDeath, ChildEnd } from '../engine/verdict.js'
export type { ChildDeath } from '../engine/verdict.js'
import { readBlocked, readExit, readKilled, readWhere, type Escape, type WatchLimits } from '../watchdog/record.js'

const WATCH_MS = 50
/** A check this long after the one before ran late (this process was starved): it decides nothing. */
const LATE_CHECK_MS = 4 * WATCH_MS
/** Before its first heartbeat a child is still loading the harness (no watchdog yet): it may be silent this long. */
const FIRST_BEAT_MS = 60_000
/** The backstop acts at twice the watchdog's limits, and this much more. */
const BACKSTOP_FACTOR = 2
const BACKSTOP_MARGIN_MS = 5_000
/** V8's last words when the heap cap is reached. */
const OUT_OF_MEMORY = /heap out of memory|Allocation failed - JavaScript heap|Reached heap limit/
const STDERR_TAIL = 8192
/** How long the stderr pipe may stay open after the child ended (a process out of reach holding it) before it is let go. */
const STDERR_DRAIN_MS = 1_000

export type RequestLimits = WatchLimits
/** A request to the child: it carries the limits its watchdog judges it by. */
export type LimitedRequest = Extract<ToChild, { limits: WatchLimits }>

export interface ChildSettings {
  target: ChildInit['target']
  /** The run's folder: the child's watchdog files go in a folder of its own inside it. */
  runDir: string
  stallReportMs: number
  /** How long loading the adapter may stay silent (a loop at a module's top level). */
  loadSilenceMs: number
  maxOldSpaceMb: number
  onEscape: (escape: Escape) => void
  /** The child ended while it held no request (and was not asked to stop). */
  onIdleDeath: (death: ChildDeath) => void
  /** The child sent a message of no known shape (the implementation wrote on the channel): the clause it held, if any. */
  onStray: (clause: string | undefined) => void
  onStarted?: (clause: string) => void
}

type Answer = Exclude<FromChild, { type: 'beat' | 'escape' | 'started' }>

export class SupervisedChild {
  private readonly process: ChildProcess
  private readonly stateDir: string
  /** The mark the child's process tree carries (process-tree.mjs). */
  private readonly mark: string
  /** The child's own clock, and the child's own time silent, in its case and in its request, counted by the checks. */
  private readonly clock: ReturnType<typeof ownClock>
  private readonly memory: ReturnType<typeof residentMemory>
  /** The child outgrew the memory a process may hold (processMemoryCapMb) and was killed. */
  private overMemory = false
  private lastOwn: number
  private lastCheck = performance.now()
  private heardSinceCheck = false
  private silentOwn = 0
  private caseOwn = 0
  private requestOwn = 0
  private cases = 0
  private beating = false
  private open: { resolve: (answer: Answer | ChildDeath) => void; limits: RequestLimits } | undefined
  private killedFor: ChildEnd['killed'] | undefined
  private stderrTail = ''
  private readonly watch: NodeJS.Timeout
  private death: ChildDeath | undefined
  private stopping = false
  /** The clause of the request open now, if it is one. */
  private holding: string | undefined
  private readonly strayIn = new Set<string | undefined>()
  /** The first answer: `ready` or `load-error` (or the child's death before either). */
  readonly ready: Promise<Answer | ChildDeath>
  readonly exited: Promise<ChildDeath>

  constructor(private readonly settings: ChildSettings) {
    const { target, stallReportMs, loadSilenceMs } = settings
    const execArgv = [`--max-old-space-size=${settings.maxOldSpaceMb}`]
    ;({ child: this.process, mark: this.mark } = takeEarly(execArgv) ?? startChild(execArgv))
    // Named by the child's pid: the child finds its way back to it, and so may a hostile implementation (record.ts reads it as such).
    this.stateDir = join(settings.runDir, String(this.process.pid ?? `unstarted-${this.mark}`))
    mkdirSync(this.stateDir, { recursive: true, mode: 0o700 })
    const init: ChildInit = { target, stateDir: this.stateDir, stallReportMs, loadSilenceMs }
    this.process.send({ type: 'init', init } satisfies ToChild, (error) => error && this.process.kill('SIGKILL'))
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
      if (process.env.TOOLREG_CHILD_STDERR) process.stderr.write(chunk)
    })
    this.process.on('message', (raw: unknown) => this.heard(raw))
    this.process.on('error', () => this.process.kill('SIGKILL')) // a send to a child that just died: its exit tells the rest
    this.clock = ownClock(this.process.pid ?? -1) // no pid: a fork that failed, whose exit follows
    this.lastOwn = this.clock.now()
    this.memory = residentMemory(this.process.pid ?? -1)
    this.exited = new Promise((resolve) => this.process.on('exit', (code, signal) => resolve(this.ended(code, signal))))
    this.ready = this.ask(undefined, { silenceMs: settings.loadSilenceMs })
    this.watch = setInterval(() => this.check(), WATCH_MS)
    this.watch.unref()
  }

  /** The clause the child holds now and the stage it entered last (from its watchdog's file), if it holds one. */
  holdingNow(): { clause: string; stage?: string } | undefined {
    if (!this.holding || !this.alive) return undefined
    const where = readWhere(this.stateDir)
    return { clause: this.holding, ...(where?.clause === this.holding && where.stage ? { stage: where.stage } : {}) }
  }

  /** Whether the child's harness ever said it is alive (its first heartbeat goes out before the adapter loads). */
  get beganBeating(): boolean {
    return this.beating
  }

  get alive(): boolean {
    return this.death === undefined
  }

  /** Sends one request and waits for its answer, or for the child's death. */
  request(message: LimitedRequest): Promise<Answer | ChildDeath> {
    return this.ask(message, message.limits)
  }

  kill(reason: NonNullable<ChildEnd['killed']>): void {
    if (!this.alive) return
    this.killedFor ??= reason
    this.process.kill('SIGKILL')
  }

  /** Kills the child and its process tree now, synchronously (the supervisor is about to exit). */
  endNow(): void {
    this.killedFor ??= 'budget'
    endTree(this.process.pid, this.mark)
    this.process.kill('SIGKILL')
  }

  /** Asks the child to exit cleanly (so coverage is written); kills it when it does not. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true
    if (this.alive) {
      try {
        this.process.send({ type: 'stop' } satisfies ToChild)
      } catch {
        // a closed channel: the child is on its way out
      }
      const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs)
      await this.exited
      clearTimeout(timer)
    }
  }

  private ask(message: ToChild | undefined, limits: RequestLimits): Promise<Answer | ChildDeath> {
    if (this.death) return Promise.resolve(this.death)
    this.holding = message?.type === 'run' ? message.clause : undefined
    return new Promise((resolve) => {
      this.open = { resolve, limits }
      this.silentOwn = this.caseOwn = this.requestOwn = 0
      if (message) this.process.send(message, (error) => error && this.process.kill('SIGKILL'))
    })
  }

  private heard(raw: unknown): void {
    const message = readMessage(raw)
    if (!message) return this.stray()
    this.heardSinceCheck = true
    this.silentOwn = 0
    if (message.type === 'beat') {
      this.beating = true
      if (message.cases !== this.cases) [this.cases, this.caseOwn] = [message.cases, 0]
      return
    }
    if (message.type === 'escape') return this.settings.onEscape(message.escape)
    if (message.type === 'started') return this.settings.onStarted?.(message.clause)
    this.settle(message)
  }

  /** Told once per clause: a child that floods the channel costs one escape, not one per message. */
  private stray(): void {
    if (this.strayIn.has(this.holding)) return
    this.strayIn.add(this.holding)
    this.settings.onStray(this.holding)
  }

  private settle(answer: Answer | ChildDeath): void {
    const open = this.open
    this.open = undefined
    open?.resolve(answer)
  }

  /** A child that holds more memory than a process may (outside its heap: Buffers, native memory) ends as out of memory. */
  private boundMemory(): void {
    const mb = this.memory.mb()
    if (mb === undefined || mb <= processMemoryCapMb(this.settings.maxOldSpaceMb) || !this.alive) return
    this.overMemory = true
    this.process.kill('SIGKILL')
  }

  /** The backstop: the child's own time since it was last heard, in its case and in its request; far past the watchdog's limits it is killed. */
  private check(): void {
    this.boundMemory()
    const [now, own] = [performance.now(), this.clock.now()]
    const grew = own - this.lastOwn
    const late = now - this.lastCheck > LATE_CHECK_MS
    const heard = this.heardSinceCheck
    ;[this.lastCheck, this.lastOwn, this.heardSinceCheck] = [now, own, false]
    const open = this.open
    if (!open || !this.alive || late) return
    if (!heard) this.silentOwn += grew
    this.caseOwn += grew
    this.requestOwn += grew
    const { silenceMs, deadlineMs, caseDeadlineMs } = open.limits
    if (this.silentOwn > (this.beating ? backstop(silenceMs) : Math.max(silenceMs, FIRST_BEAT_MS))) this.kill('blocked')
    else if (deadlineMs !== undefined && this.requestOwn > backstop(deadlineMs)) this.kill('deadline')
    else if (caseDeadlineMs !== undefined && this.caseOwn > backstop(caseDeadlineMs)) this.kill('deadline')
  }

  /**
   * Whatever the child started ends with it (its process group, and what left the group with the
   * mark), and its stderr pipe, which a helper out of reach may still hold, is let go soon after.
   */
  private endTree(): void {
    endTree(this.process.pid, this.mark)
    const stderr = this.process.stderr
    if (stderr && !stderr.closed) setTimeout(() => stderr.destroy(), STDERR_DRAIN_MS).unref()
  }

  private ended(exitCode: number | null, signal: NodeJS.Signals | null): ChildDeath {
    clearInterval(this.watch)
    this.clock.close()
    this.memory.close()
    const outOfMemory = this.overMemory || OUT_OF_MEMORY.test(this.stderrTail)
    const where = readWhere(this.stateDir)
    const blocked = readBlocked(this.stateDir)
    const exit = readExit(this.stateDir)
    // The watchdog thread's judgement, when its kill is what ended the child.
    const judged = signal === 'SIGKILL' && !this.killedFor ? readKilled(this.stateDir) : undefined
    this.endTree()
    removeRunFolder(this.stateDir)
    const killed = this.killedFor ?? judged?.killed
    this.death = {
      ended: { exitCode, signal, ...(killed ? { killed } : {}), ...(outOfMemory ? { outOfMemory: true as const } : {}) },
      silentMs: judged?.silentMs ?? this.silentOwn,
      caseMs: judged?.caseMs ?? this.caseOwn,
      ...(where ? { where } : {}),
      ...(blocked ? { blocked } : {}),
      ...(exit ? { exit } : {}),
    }
    if (this.open) this.settle(this.death)
    else if (!this.stopping && this.killedFor !== 'budget') this.settings.onIdleDeath(this.death)
    return this.death
  }
}

/** How far past the watchdog's limit the supervisor's backstop acts. */
const backstop = (limitMs: number) => BACKSTOP_FACTOR * limitMs + BACKSTOP_MARGIN_MS

export const isDeath = <T extends object>(answer: T | ChildDeath): answer is ChildDeath => 'ended' in answer && 'silentMs' in answer
