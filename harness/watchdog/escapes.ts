/**
 * Traps for what an implementation can throw past its calls: uncaught exceptions (a timer that
 * throws), unhandled rejections, process.exit, and the harness's process controls
 * (process-controls.ts). Each is attributed to the case whose async
 * context scheduled it (AsyncLocalStorage follows timers and promises), else to the property
 * running, else to nobody (a harness-level error), and handed to `report` (which tells the
 * supervisor). Installing the listeners also keeps such an error from ending the process.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { describeThrown } from '../safe/safe-read.js'
import { trapProcessControls } from './process-controls.js'
import type { Escape, RunningCase } from './record.js'

export class EscapeTraps {
  private readonly context = new AsyncLocalStorage<RunningCase>()
  private readonly recorded: Escape[] = []
  private property: RunningCase | undefined

  constructor(
    /** Told of every escape as it is recorded (synchronously: a process.exit follows at once). */
    private readonly report: (escape: Escape) => void,
    /** The stage the interpreter entered last, for escapes that happen synchronously inside a call. */
    private readonly stageNow: () => string,
  ) {}

  /** process.exit as it was before install(): for the harness's own clean exit. */
  private realExit: typeof process.exit = process.exit

  install(): void {
    const uncaught = 'an uncaught exception escaped the implementation (thrown outside any call, e.g. from a timer)'
    process.on('uncaughtException', (error) => this.record('uncaught exception', `${uncaught}: ${describeThrown(error)}`))
    const unhandled = 'an unhandled rejection escaped the implementation (a promise nobody awaited)'
    process.on('unhandledRejection', (reason) => this.record('unhandled rejection', `${unhandled}: ${describeThrown(reason)}`))
    const exit = (this.realExit = process.exit)
    process.exit = ((code?: number | string | null) => {
      this.record('process.exit', `the implementation called process.exit(${code ?? ''}) in stage ${this.stageNow() || 'before any stage'}`)
      return exit.call(process, code)
    }) as typeof process.exit
    trapProcessControls((detail) => this.record('process control', detail))
  }

  /** Ends the process on the harness's behalf, without recording an escape. */
  exitCleanly(code: number): never {
    return this.realExit.call(process, code)
  }

  propertyStarted(property: RunningCase | undefined): void {
    this.property = property
  }

  /** Runs one case in its own async context, so whatever it schedules is traced back to it. */
  within<T>(running: RunningCase, work: () => Promise<T>): Promise<T> {
    return this.context.run(running, work)
  }

  /** Escapes attributed to this case, or (with a clause) to any case of that property. */
  escapesOf(match: RunningCase | string): Escape[] {
    return this.recorded.filter((e) => (typeof match === 'string' ? e.at?.clause === match : e.at === match))
  }

  add(escape: Escape): Escape {
    this.recorded.push(escape)
    this.report(escape)
    return escape
  }

  private record(kind: Escape['kind'], detail: string): void {
    const at = this.context.getStore() ?? this.property
    const stage = this.stageNow()
    this.add({ kind, detail, ...(at ? { at } : {}), ...(stage ? { stage } : {}) })
  }
}
