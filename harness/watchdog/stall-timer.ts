/**
 * The watchdog of a process running the implementation. This thread bumps a heartbeat in shared
 * memory every tick and tells the watchdog thread (stall-thread.mjs) which property and case
 * are running and which stage the interpreter entered last. A synchronous loop in the
 * implementation stops the heartbeat; past the allowed time the watchdog thread records what was
 * running (and, with `kill`, kills this process; otherwise the supervising process does).
 */
import { Worker } from 'node:worker_threads'
import { watchdogFiles, type RunningCase, type WatchdogConfig } from './record.js'

const TICK_MS = 100
const STAGE_BYTES = 512

export class Watchdog {
  private readonly header: Int32Array
  private readonly stageBytes: Uint8Array
  private readonly encoder = new TextEncoder()
  private readonly heartbeat: NodeJS.Timeout
  private readonly thread: Worker
  private readonly files: ReturnType<typeof watchdogFiles>

  constructor(config: WatchdogConfig) {
    const shared = new SharedArrayBuffer(8 + STAGE_BYTES)
    this.header = new Int32Array(shared, 0, 2)
    this.stageBytes = new Uint8Array(shared, 8)
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
    this.thread.postMessage(running)
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
