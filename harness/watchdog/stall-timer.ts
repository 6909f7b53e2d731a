/**
 * The watchdog of a process running the implementation. This thread bumps a heartbeat in shared
 * memory every tick and tells the watchdog thread (stall-thread.mjs) which property is running
 * (a message: rare), which case and stage, and the limits of the request it runs (shared memory:
 * a message per case cost a tenth of a certification run's CPU). A synchronous loop in the
 * implementation stops the heartbeat; past the allowed own time (safe/own-time.mjs) the watchdog
 * thread records what was running and, past the request's limits (or at once with `kill`), kills
 * this process.
 */
import { Worker } from 'node:worker_threads'
import { watchdogFiles, type RunningCase, type WatchdogConfig, type WatchLimits } from './record.js'

const TICK_MS = 100
const STAGE_BYTES = 512
/** Room for the case as UTF-8 (the case supervisor keeps cases up to 256 K characters of JSON). */
const CASE_BYTES = 1024 * 1024
/**
 * Int32 slots: heartbeat, stage length, case number, case length (-1: the case is not kept), cases
 * started, silence allowed, case deadline, request deadline (0: none), request number.
 */
const HEADER_BYTES = 48
const SLOT = { beat: 0, stage: 1, caseNumber: 2, caseLength: 3, cases: 4, silence: 5, caseDeadline: 6, requestDeadline: 7, request: 8 }

export class Watchdog {
  private readonly header: Int32Array
  private readonly stageBytes: Uint8Array
  private readonly caseBytes: Uint8Array
  private property: string | undefined
  private readonly encoder = new TextEncoder()
  private readonly heartbeat: NodeJS.Timeout
  private readonly thread: Worker
  private readonly files: ReturnType<typeof watchdogFiles>

  constructor(config: WatchdogConfig) {
    const shared = new SharedArrayBuffer(HEADER_BYTES + STAGE_BYTES + CASE_BYTES)
    this.header = new Int32Array(shared, 0, HEADER_BYTES / 4)
    this.stageBytes = new Uint8Array(shared, HEADER_BYTES, STAGE_BYTES)
    this.caseBytes = new Uint8Array(shared, HEADER_BYTES + STAGE_BYTES, CASE_BYTES)
    this.files = watchdogFiles(config.dir)
    this.thread = new Worker(new URL('./stall-thread.mjs', import.meta.url), {
      workerData: {
        shared,
        blockedFile: this.files.blocked,
        stageFile: this.files.stage,
        killedFile: this.files.killed,
        blockedAfterMs: config.blockedAfterMs,
        tickMs: TICK_MS,
        kill: config.kill === true,
      },
    })
    this.thread.unref()
    this.heartbeat = setInterval(() => Atomics.add(this.header, SLOT.beat, 1), TICK_MS)
    this.heartbeat.unref()
    if (config.limits) this.limits(config.limits)
  }

  /**
   * What the request now starting may take, in own time: past it the watchdog thread kills this
   * process. The silence allowed stays until the next request (a timer left behind may block the
   * loop between requests); the deadlines only count within a request (`undefined`: between).
   */
  limits(limits: WatchLimits | undefined): void {
    if (limits) Atomics.store(this.header, SLOT.silence, limits.silenceMs)
    Atomics.store(this.header, SLOT.caseDeadline, limits?.caseDeadlineMs ?? 0)
    Atomics.store(this.header, SLOT.requestDeadline, limits?.deadlineMs ?? 0)
    Atomics.add(this.header, SLOT.request, 1)
  }

  caseStarted(running: RunningCase): void {
    const { case: text, caseNumber, ...property } = running
    const key = `${property.clause}\n${property.title}`
    if (key !== this.property) {
      this.property = key
      this.thread.postMessage(property)
    }
    const kept = text === undefined ? undefined : this.encoder.encodeInto(text, this.caseBytes)
    Atomics.store(this.header, SLOT.caseLength, kept && kept.read === text!.length ? kept.written : -1)
    Atomics.store(this.header, SLOT.caseNumber, caseNumber ?? 0)
    Atomics.add(this.header, SLOT.cases, 1)
    this.stage('')
  }

  /** The stage the interpreter just entered ("body#0 of c1"); '' before any. */
  stage(stage: string): void {
    const { written } = this.encoder.encodeInto(stage, this.stageBytes)
    Atomics.store(this.header, SLOT.stage, written)
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat)
    await this.thread.terminate()
  }
}
