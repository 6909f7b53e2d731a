/**
 * What every MCP trial runs against: the server command, its named state, its tools and
 * observers, and the sessions. A trial starts from the pristine state on a server that has seen
 * nothing since (a fresh process, or — for a server that keeps no state but the named state, or
 * after a trial that left everything as it found it — the previous one). A fresh process is
 * started while the previous trial runs (the spare); it serves the next trial only if the named
 * state was pristine when it had started, so a server that reads its state while starting never
 * starts from a trial's leftovers.
 */
import { isDeepStrictEqual } from 'node:util'
import { settleWithin } from '../settle-within.js'
import type { JsonValue } from '../../contract/spec.js'
import type { NamedState } from './named-state.js'
import { observe, type Observers } from './observation.js'
import type { ServerCommand } from './server-command.js'
import { CallStalled, startServer, type ServerSession } from './server-session.js'
import type { McpCall, McpOutcome, McpTool, Observation } from './types.js'

export interface McpSettings {
  /** A call (or an observation) that has not answered after this long stalls its trial. */
  callTimeoutMs: number
  /** How long the server may take to start and list its tools. */
  startTimeoutMs: number
  /** The server keeps no state but the named state: one process serves every trial. */
  reuseServer: boolean
  /** How far apart the two observations that choose the observers are (observation.ts). */
  observerGapMs: number
}

export interface McpTarget {
  readonly server: ServerCommand
  readonly state: NamedState | undefined
  readonly tools: readonly McpTool[]
  readonly observers: Observers
  readonly words: readonly string[]
  readonly settings: McpSettings
}

export interface McpTrial {
  call(call: McpCall): Promise<McpOutcome>
  observe(): Promise<Observation>
  /** The trial left the server as it found it: the next trial may use the same process. */
  leftClean(): void
}

/** Calls a trial may make, at most, each within the call bound: earlier calls, observations, the calls under test. */
const TRIAL_CALLS = 40

interface Spare {
  session: ServerSession
  /** The named state was pristine when the process had started. */
  pristine: boolean
}

export class Servers {
  private idle: ServerSession | undefined
  private spare: Promise<Spare> | undefined
  private pristine: Promise<JsonValue> | undefined
  started = 0

  constructor(private readonly target: McpTarget) {}

  async withTrial<T>(body: (trial: McpTrial) => Promise<T>): Promise<T> {
    const { target } = this
    await target.state?.restore()
    this.pristine ??= target.state ? target.state.read() : Promise.resolve(null)
    const session = this.idle ?? (await this.fresh())
    this.idle = undefined
    if (!target.settings.reuseServer && !this.spare) this.spare = this.startSpare()
    let keep = target.settings.reuseServer
    const trial: McpTrial = {
      call: (c) => session.call(c.tool, c.arguments as JsonValue, target.settings.callTimeoutMs),
      observe: () => observe(session, target.observers, target.state, target.settings.callTimeoutMs),
      leftClean: () => (keep = true),
    }
    try {
      // A bound on the whole trial, whatever it waits on: a hung trial is skipped like a stalled call.
      const bound = TRIAL_CALLS * target.settings.callTimeoutMs
      const settled = await settleWithin(body(trial), bound)
      if (!settled.settled) throw new CallStalled(`a trial did not finish within ${bound} ms`)
      const value = settled.value
      if (keep) this.idle = session
      return value
    } catch (error) {
      if (!(error instanceof CallStalled) && keep) this.idle = session
      throw error
    } finally {
      if (this.idle !== session) await session.close()
    }
  }

  async dispose(): Promise<void> {
    const spare = this.spare
    this.spare = undefined
    await Promise.all([this.idle?.close(), spare?.then((s) => s.session.close(), () => {})])
    this.idle = undefined
  }

  private async fresh(): Promise<ServerSession> {
    const spare = this.spare
    this.spare = undefined
    const ready = spare ? await spare : undefined
    if (ready?.pristine) return ready.session
    await ready?.session.close()
    return this.start()
  }

  private startSpare(): Promise<Spare> {
    const { state } = this.target
    const spare = this.start().then(async (session) => ({ session, pristine: !state || isDeepStrictEqual(await state.read(), await this.pristine) }))
    spare.catch(() => {}) // a spare that failed to start fails the trial that takes it
    return spare
  }

  private async start(): Promise<ServerSession> {
    this.started++
    return startServer(this.target.server, this.target.settings.startTimeoutMs)
  }
}
