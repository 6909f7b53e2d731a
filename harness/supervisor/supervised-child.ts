/**
 * One child process running the implementation, seen from the supervisor: it is started with
 * a heap cap, asked one thing at a time, and judged on what it does rather than on what it says.
 * Silence longer than allowed (a blocked event loop), a deadline, or the run's budget gets it
 * SIGKILLed; any exit while a request is open, exit code 0 included, ends the request with a
 * death record read from what the child left behind (watchdog-record.ts).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChildInit, FromChild, ToChild } from './child-messages.js'
import { takeEarly } from './early-child.mjs'
import type { ChildDeath, ChildEnd } from '../engine/verdict.js'
export type { ChildDeath } from '../engine/verdict.js'
import { readBlocked, readExit, readWhere, type BlockedRecord, type Escape, type ExitRecord, type WhereRecord } from '../watchdog/record.js'

const ENTRY = new URL('./child.mjs', import.meta.url)
const WATCH_MS = 50
/** Before its first heartbeat a child is still loading the harness: it may be silent this long. */
const FIRST_BEAT_MS = 60_000
/** V8's last words when the heap cap is reached. */
const OUT_OF_MEMORY = /heap out of memory|Allocation failed - JavaScript heap|Reached heap limit/
const STDERR_TAIL = 8192


export interface RequestLimits {
  /** No message for this long = a blocked event loop. */
  silenceMs: number
  /** The whole request may take this long (for work that may hang asynchronously). */
  deadlineMs?: number
  /** One case may take this long (a promise of the implementation that never settles). */
  caseDeadlineMs?: number
}

export interface ChildSettings {
  target: ChildInit['target']
  stallReportMs: number
  /** How long loading the adapter may stay silent (a loop at a module's top level). */
  loadSilenceMs: number
  maxOldSpaceMb: number
  onEscape: (escape: Escape) => void
  /** The child ended while it held no request (and was not asked to stop). */
  onIdleDeath: (death: ChildDeath) => void
  onStarted?: (clause: string) => void
}

type Answer = Exclude<FromChild, { type: 'beat' | 'escape' | 'started' }>

export class SupervisedChild {
  private readonly process: ChildProcess
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'toolreg-child-'))
  private lastHeard = Date.now()
  private cases = 0
  private caseSince = Date.now()
  private beating = false
  private open: { resolve: (answer: Answer | ChildDeath) => void; limits: RequestLimits; sentAt: number } | undefined
  private killedFor: ChildEnd['killed'] | undefined
  private stderrTail = ''
  private readonly watch: NodeJS.Timeout
  private death: ChildDeath | undefined
  private stopping = false
  /** The first answer: `ready` or `load-error` (or the child's death before either). */
  readonly ready: Promise<Answer | ChildDeath>
  readonly exited: Promise<ChildDeath>

  constructor(private readonly settings: ChildSettings) {
    const init: ChildInit = { target: settings.target, stateDir: this.stateDir, stallReportMs: settings.stallReportMs }
    const execArgv = [`--max-old-space-size=${settings.maxOldSpaceMb}`]
    this.process = takeEarly(execArgv) ?? fork(ENTRY, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' })
    this.process.send({ type: 'init', init } satisfies ToChild, (error) => error && this.process.kill('SIGKILL'))
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
      if (process.env.TOOLREG_CHILD_STDERR) process.stderr.write(chunk)
    })
    this.process.on('message', (message: FromChild) => this.heard(message))
    this.process.on('error', () => this.process.kill('SIGKILL')) // a send to a child that just died: its exit tells the rest
    this.exited = new Promise((resolve) => this.process.on('exit', (code, signal) => resolve(this.ended(code, signal))))
    this.ready = this.ask(undefined, { silenceMs: settings.loadSilenceMs })
    this.watch = setInterval(() => this.check(), WATCH_MS)
    this.watch.unref()
  }

  get alive(): boolean {
    return this.death === undefined
  }

  /** Sends one request and waits for its answer, or for the child's death. */
  request(message: ToChild, limits: RequestLimits): Promise<Answer | ChildDeath> {
    return this.ask(message, limits)
  }

  kill(reason: NonNullable<ChildEnd['killed']>): void {
    if (!this.alive) return
    this.killedFor ??= reason
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
    return new Promise((resolve) => {
      this.open = { resolve, limits, sentAt: Date.now() }
      this.lastHeard = this.caseSince = Date.now()
      if (message) this.process.send(message, (error) => error && this.process.kill('SIGKILL'))
    })
  }

  private heard(message: FromChild): void {
    this.lastHeard = Date.now()
    if (message.type === 'beat') {
      this.beating = true
      if (message.cases !== this.cases) [this.cases, this.caseSince] = [message.cases, this.lastHeard]
      return
    }
    if (message.type === 'escape') return this.settings.onEscape(message.escape)
    if (message.type === 'started') return this.settings.onStarted?.(message.clause)
    this.settle(message)
  }

  private settle(answer: Answer | ChildDeath): void {
    const open = this.open
    this.open = undefined
    open?.resolve(answer)
  }

  private check(): void {
    const open = this.open
    if (!open || !this.alive) return
    const now = Date.now()
    if (now - this.lastHeard > (this.beating ? open.limits.silenceMs : Math.max(open.limits.silenceMs, FIRST_BEAT_MS))) this.kill('blocked')
    else if (open.limits.deadlineMs !== undefined && now - open.sentAt > open.limits.deadlineMs) this.kill('deadline')
    else if (open.limits.caseDeadlineMs !== undefined && now - this.caseSince > open.limits.caseDeadlineMs) this.kill('deadline')
  }

  private ended(exitCode: number | null, signal: NodeJS.Signals | null): ChildDeath {
    clearInterval(this.watch)
    const outOfMemory = OUT_OF_MEMORY.test(this.stderrTail)
    const where = readWhere(this.stateDir)
    const blocked = readBlocked(this.stateDir)
    const exit = readExit(this.stateDir)
    rmSync(this.stateDir, { recursive: true, force: true })
    this.death = {
      ended: { exitCode, signal, ...(this.killedFor ? { killed: this.killedFor } : {}), ...(outOfMemory ? { outOfMemory: true as const } : {}) },
      silentMs: Date.now() - this.lastHeard,
      caseMs: Date.now() - this.caseSince,
      ...(where ? { where } : {}),
      ...(blocked ? { blocked } : {}),
      ...(exit ? { exit } : {}),
    }
    if (this.open) this.settle(this.death)
    else if (!this.stopping && this.killedFor !== 'budget') this.settings.onIdleDeath(this.death)
    return this.death
  }
}

export const isDeath = <T extends object>(answer: T | ChildDeath): answer is ChildDeath => 'ended' in answer && 'silentMs' in answer
