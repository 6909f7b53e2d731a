/**
 * One running server: spawned from the command, handshaken, and driven by a Peer. A connection
 * that died (the server exited, hung or broke the protocol) stays dead; the remote adapter starts
 * a new one.
 */
import { spawnServer } from './child-transport.js'
import { PROTOCOL_VERSION, type Welcome } from './messages.js'
import { Peer } from './peer.js'
import { ProtocolError, ServerEnded, type ServerEnd } from './protocol-error.js'
import { millisecondsFromEnv } from '../safe/env-milliseconds.js'

export interface ConnectionOptions {
  command: string
  cwd?: string
  /** Check every message against the schemas, on both sides. */
  validate?: boolean
  /** How long the server may take to answer the handshake (default 20 s: npx and tsx start slowly on a loaded machine). */
  handshakeTimeoutMs?: number
  /** Longest silence while waiting for an answer before the server counts as hung (default 3 s). */
  replyTimeoutMs?: number
  /** Copy the server's standard error and logs to ours. */
  debug?: boolean
  /**
   * The server ended of its own doing after the handshake (it exited, was ended by a signal, or
   * hung), with what happened and during which call. Called once per server, as it happens.
   */
  onEnded?: (ended: ServerEnd, detail: string) => void
}

/** Overridable with TOOLREG_HANDSHAKE_TIMEOUT_MS and TOOLREG_REPLY_TIMEOUT_MS. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = millisecondsFromEnv('TOOLREG_HANDSHAKE_TIMEOUT_MS', 20_000)
export const DEFAULT_REPLY_TIMEOUT_MS = millisecondsFromEnv('TOOLREG_REPLY_TIMEOUT_MS', 3000)

export class Connection {
  readonly peer: Peer
  readonly welcome: Welcome
  private readonly logTail: string[] = []
  private deathReported = false
  private handshaken = false

  constructor(readonly options: ConnectionOptions) {
    const transport = spawnServer(options.command, {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      echoStderr: options.debug === true || process.env.TOOLREG_PROTOCOL_DEBUG === '1',
    })
    this.peer = new Peer(transport, {
      validate: options.validate === true,
      replyTimeoutMs: options.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
      writeThrough: true,
      onClosed: (error) => {
        if (this.handshaken && error instanceof ServerEnded) options.onEnded?.(error.ended, this.deathText(error))
      },
      onLog: (level, message) => {
        this.logTail.push(`${level}: ${message}`)
        if (this.logTail.length > 5) this.logTail.shift()
        if (options.debug) process.stderr.write(`[server ${level}] ${message}\n`)
      },
    })
    const timeout = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS
    try {
      this.welcome = this.peer.request({ type: 'hello', protocol: PROTOCOL_VERSION, validate: options.validate === true }, 'the handshake', timeout) as Welcome
    } catch (error) {
      transport.kill('no handshake')
      const why = error instanceof Error ? error.message : String(error)
      const hung = /no answer to the handshake within \d+ ms: the implementation is hung \(its server was killed\)/
      throw new ProtocolError(`the server "${options.command}" did not complete the handshake: ${why.replace(hung, `no welcome within ${timeout} ms`)}`)
    }
    if (this.welcome.type !== 'welcome') throw new ProtocolError(
      `the server answered the handshake with a ${String((this.welcome as { type?: unknown }).type)} message`,
    )
    this.handshaken = true
    this.peer.listen()
  }

  get dead(): boolean {
    return this.peer.closed !== undefined
  }

  /** The server ended on its own (it exited, or hung and was killed), rather than breaking the protocol. */
  get ended(): boolean {
    return this.peer.closed instanceof ServerEnded
  }

  /**
   * Once, after the server died: what happened and during which call (then undefined, so the
   * adapter starts a new server).
   */
  death(): ProtocolError | undefined {
    const closed = this.peer.closed
    if (!closed || this.deathReported) return undefined
    this.deathReported = true
    return new ProtocolError(this.deathText(closed))
  }

  private deathText(closed: ProtocolError): string {
    const during = this.peer.closedDuring && !closed.message.includes(this.peer.closedDuring) ? ` during ${this.peer.closedDuring}` : ''
    const logs = this.logTail.length > 0 ? `; its last log lines: ${this.logTail.join(' | ')}` : ''
    return `the implementation's server died${during}: ${closed.message}${logs}`
  }

  /** The server's last log lines, for error messages. */
  get recentLogs(): readonly string[] {
    return this.logTail
  }

  close(): void {
    if (!this.dead) this.peer.close(new ProtocolError('the connection was closed by the harness'))
    this.peer.closeTransport()
  }
}
