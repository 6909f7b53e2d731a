/**
 * The watchdog of a process running the implementation. This thread bumps a heartbeat in shared
 * memory every tick and tells the watchdog thread (stall-thread.mjs) which property is running
 * (a message: rare) and which case and stage (shared memory: a message per case cost a tenth of a
 * certification run's CPU). A synchronous loop in the
 * implementation stops the heartbeat; past the allowed time the watchdog thread records what was
 * running (and, with `kill`, kills this process; otherwise the supervising process does).
 */
import { Worker } from 'node:worker_threads'
import { watchdogFiles, type RunningCase, type WatchdogConfig } from './record.js'

const TICK_MS = 100
const STAGE_BYTES = 512
/** Room for the case as UTF-8 (the case supervisor keeps cases up to 256 K characters of JSON). */
const CASE_BYTES = 1024 * 1024
/** Int32 slots: heartbeat, stage length, case number, case length (-1: the case is not kept). */
const HEADER_BYTES = 16

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
        blockedAfterMs: config.blockedAfterMs,
        tickMs: TICK_MS,
        kill: config.kill === true,
      },
    })
    this.thread.unref()
    this.heartbeat = setInterval(() => Atomics.add(this.header, 0, 1), TICK_MS)
    this.heartbeat.unref()
  }

  caseStarted(running: RunningCase): void {
    const { case: text, caseNumber, ...property } = running
    const key = `${property.clause}\n${property.title}`
    if (key !== this.property) {
      this.property = key
      this.thread.postMessage(property)
    }
    const kept = text === undefined ? undefined : this.encoder.encodeInto(text, this.caseBytes)
    Atomics.store(this.header, 3, kept && kept.read === text!.length ? kept.written : -1)
    Atomics.store(this.header, 2, caseNumber ?? 0)
    this.stage('')
  }

  /** The stage the interpreter just entered ("body#0 of c1"); '' before any. */
  stage(stage: string): void {
    const { written } = this.encoder.encodeInto(stage, this.stageBytes)
    Atomics.store(this.header, 1, written)
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat)
    await this.thread.terminate()
  }
}
