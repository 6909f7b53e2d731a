/**
 * Supervision inside the child that runs the implementation for `toolreg certify`: the watchdog
 * (a blocked event loop), the escape traps (uncaught exceptions, unhandled rejections,
 * process.exit) and changed globals (looked at as each stage starts, on a timer, and after each
 * case), around every case and every property. What happens inside a case becomes a violation
 * of the property's clause for that case (so it shrinks and replays like any failure); what
 * surfaces later is still reported against the property when it ends.
 */
import type { Violation } from '../oracle/judge.js'
import { listenToStages } from '../scenario/stage-probe.js'
import type { CaseOutcome, ConformanceProperty } from '../property/property.js'
import type { ServerEnd } from '../protocol/protocol-error.js'
import { EscapeTraps } from './escapes.js'
import { globalsChanged, globalsChangedQuick, revertChangedGlobals } from './globals.js'
import { watchdogFiles, type Escape, type RunningCase, type WatchdogConfig, type WatchLimits } from './record.js'
import { Watchdog } from './stall-timer.js'
import { writeUntrusted } from '../safe/untrusted-file.mjs'

/** Cases longer than this (as JSON) are not kept for the blocked record. */
const MAX_CASE_JSON = 256 * 1024
/** How often the globals are looked at while a case runs (a pollution that keeps the case from settling). */
const GLOBALS_WATCH_MS = 100
/** Promise as it was before the adapter loaded: a hook that replaces the global cannot stall the case's yield. */
const NativePromise = Promise

export class Supervisor {
  private readonly watchdog: Watchdog
  private readonly traps: EscapeTraps
  private stage = ''
  private property: RunningCase | undefined
  /** The case running now, if any. */
  private running: RunningCase | undefined
  private cases = 0
  /** Cases started in this process, all properties together: the heartbeat carries it, so the supervisor sees a case that never ends. */
  casesStarted = 0
  /** Escapes already reported as violations of a case. */
  private readonly reported = new Set<Escape>()

  constructor(config: WatchdogConfig, onEscape: (escape: Escape) => void) {
    this.watchdog = new Watchdog(config)
    const exitFile = watchdogFiles(config.dir).exit
    const report = (escape: Escape) => {
      // A process.exit ends the process right after this: only a synchronous write survives it.
      if (escape.kind === 'process.exit') writeQuietly(exitFile, JSON.stringify(escape))
      onEscape(escape)
    }
    this.traps = new EscapeTraps(report, () => this.stage)
    this.traps.install()
    listenToStages((stage) => {
      // A change seen as the next stage starts was made in the stage before it.
      if (this.running && globalsChangedQuick()) this.lookAtGlobals(this.stage)
      this.stage = stage
      this.watchdog.stage(stage)
    })
    setInterval(() => this.lookAtGlobals(this.stage), GLOBALS_WATCH_MS).unref()
  }

  /** The limits of the request now starting (own time; past them the watchdog kills this process); undefined: between requests. */
  requestLimits(limits: WatchLimits | undefined): void {
    this.watchdog.limits(limits)
  }

  /** Every escape of this clause so far, those already reported as violations of a case included. */
  escapesOf(clause: string): Escape[] {
    return this.traps.escapesOf(clause)
  }

  /** Changed globals are reverted and recorded against the case running (else the property), in `stage`. */
  private lookAtGlobals(stage: string): void {
    const at = this.running ?? this.property
    if (!at || !globalsChanged()) return
    const changed = revertChangedGlobals()
    if (changed) this.traps.add({ kind: 'changed globals', detail: changed, at, ...(stage ? { stage } : {}) })
  }

  propertyStarted(property: Pick<ConformanceProperty, 'id' | 'title'>): void {
    this.property = { clause: property.id, title: property.title }
    this.cases = 0
    this.traps.propertyStarted(this.property)
    this.watchdog.caseStarted(this.property)
  }

  /** Runs one case; an escape or a change of globals during it is a violation of the property's clause. */
  async runCase(testCase: unknown, run: () => Promise<CaseOutcome>): Promise<CaseOutcome> {
    const property = this.property
    if (!property) return run()
    const text = jsonOf(testCase)
    const running: RunningCase = { ...property, caseNumber: ++this.cases, ...(text ? { case: text } : {}) }
    this.casesStarted++
    this.stage = ''
    this.watchdog.caseStarted(running)
    this.running = running
    let outcome: CaseOutcome = { violations: [] }
    let thrown: { error: unknown } | undefined
    try {
      outcome = await this.traps.within(running, run)
    } catch (error) {
      thrown = { error } // explained by an escape below, or rethrown
    }
    // Cases chained on promises alone never let the event loop turn: yield once per case, so the
    // heartbeat measures one case's synchronous stretch, and the rejections it left unhandled
    // (reported once the microtasks drain) and its immediate timers surface within the case.
    await new NativePromise<void>((resolve) => setImmediate(resolve))
    this.lookAtGlobals(this.stage)
    this.running = undefined
    const escaped = this.traps.escapesOf(running)
    if (escaped.length === 0) {
      if (thrown) throw thrown.error
      return outcome
    }
    for (const escape of escaped) this.reported.add(escape)
    const { adapterError: _explained, ...rest } = outcome
    const own = escaped.map((e): Violation => ({ clause: property.clause, detail: e.detail }))
    // Once the implementation's process is gone, what its calls returned after is only the echo of its end.
    if (escaped.some((e) => e.ended)) return { ...rest, violations: own, implementationEnded: true }
    return { ...rest, violations: [...outcome.violations, ...own] }
  }

  /** The implementation's protocol server ended (it exited, or hung and was killed): an escape of the case running, else of the property. */
  serverEnded(ended: ServerEnd, detail: string): void {
    const at = this.running ?? this.property
    this.traps.add({ kind: 'server exit', detail, ...(at ? { at } : {}), ...(this.stage ? { stage: this.stage } : {}), ended })
  }

  /** After a property: escapes that surfaced after their case ended, and globals changed since. */
  propertyEnded(): Escape[] {
    const property = this.property
    this.property = undefined
    this.traps.propertyStarted(undefined)
    if (!property) return []
    const changed = revertChangedGlobals()
    if (changed) this.traps.add({ kind: 'changed globals', detail: changed, at: property })
    return this.traps.escapesOf(property.clause).filter((e) => !this.reported.has(e))
  }

  /** Ends the process on the harness's behalf (not an escape of the implementation). */
  async exitCleanly(code: number): Promise<never> {
    await this.stop()
    return this.traps.exitCleanly(code)
  }

  async stop(): Promise<void> {
    listenToStages(undefined)
    await this.watchdog.stop()
  }
}

function jsonOf(testCase: unknown): string | undefined {
  try {
    const text = JSON.stringify(testCase)
    return text !== undefined && text.length <= MAX_CASE_JSON ? text : undefined
  } catch {
    return undefined
  }
}

/** Never blocks (the implementation may have put a FIFO in its place); unwritten, the supervisor reports the exit without the case. */
const writeQuietly = (file: string, text: string) => void writeUntrusted(file, text)
