/**
 * One end of the protocol, the same on both sides. Every request is synchronous: the sender
 * blocks until its reply, and while it waits it serves whatever the other side asks (re-entrant
 * calls: a synchronous `executionMode` makes the server call the harness's classifier before it
 * answers). A request that arrives while this side is idle is answered only once this side's
 * pending async work has run (its microtasks, before `setImmediate`); after such an answer this
 * side keeps waiting — serving what comes, its own timers held — until the other side says
 * `yield` (it has run its own pending work and is idle). So at any moment one side runs and the
 * other waits, as if both shared one event loop: interleavings stay deterministic and replay
 * exactly, and a timer cannot fire on one side while the other still has work queued. Asynchrony
 * crosses as values: a promise is a handle, settled later by a `settle` request.
 */
import { Codec, type Encoded } from './codec.js'
import type { Message, Reply, Request, Welcome } from './messages.js'
import { ProtocolError, ServerEnded } from './protocol-error.js'
import type { Incoming, Transport } from './transport.js'
import { UNKNOWN_RECEIVER } from '../safe/unknown-receiver.js'
import { validateMessage } from './validate.js'

export interface PeerOptions {
  /** Check every message against the schemas. */
  validate?: boolean
  /** Longest silence while waiting for an answer before the other side counts as hung. */
  replyTimeoutMs?: number
  /** Writes to copies of the other side's objects reach the originals (the harness side). */
  writeThrough?: boolean
  /** Serves `hello` and `create`, which are not calls to a handle. */
  onRequest?(message: Request): unknown
  onLog?(level: string, message: string): void
  /** The connection ended (the other side exited, hung or broke the protocol). */
  onClosed?(error: ProtocolError): void
}

export class Peer {
  readonly codec: Codec
  /** Why the connection is gone, once it is. */
  closed: ProtocolError | undefined
  /** What this side was waiting for when the connection went, if anything. */
  closedDuring: string | undefined
  private nextId = 1
  private readonly replies = new Map<number, Reply | Welcome>()
  private releases: [number, number][] = []
  private validate: boolean
  /** What each request of ours still waiting for its answer asked for, outermost first. */
  private readonly waiting: string[] = []
  private yieldScheduled = false

  constructor(
    private readonly transport: Transport,
    private readonly options: PeerOptions = {},
  ) {
    this.validate = options.validate === true
    this.codec = new Codec({
      call: (id, name, args) => this.request({ type: 'call', fn: id, args: this.codec.encodeList(args) }, `${name || 'a function'}()`),
      settled: (id, outcome) => this.quietly(() => this.request({ type: 'settle', promise: id, ...this.outcome(outcome) }, 'a promise settling')),
      aborted: (id, reason) => this.quietly(() => this.request({ type: 'abort', signal: id, reason: this.codec.encode(reason) }, 'a signal aborting')),
      released: (id, gen) => this.release(id, gen),
      ...(options.writeThrough
        ? {
          mutate: (id: number, op: 'set' | 'delete', key: PropertyKey, value?: unknown) => this.request(
            { type: 'mutate', object: id, op, key: this.codec.encode(key), ...(op === 'set' ? { value: this.codec.encode(value) } : {}) },
            `a write to ${String(key)}`,
          ) === true,
        }
        : {}),
    })
  }

  /** Starts serving what arrives while this thread is idle. */
  listen(): void {
    this.transport.onIdle((incoming) => this.receive(incoming, true))
  }

  setValidate(on: boolean): void {
    this.validate = on
  }

  /** Sends a request and blocks until its answer, serving the other side meanwhile. */
  request(message: DistributiveOmit<Request, 'id'>, what: string, timeoutMs = this.options.replyTimeoutMs ?? Number.POSITIVE_INFINITY): unknown {
    if (this.closed) throw this.closed
    const id = this.nextId++
    this.send({ ...message, id } as Message)
    this.waiting.push(what)
    try {
      return this.await(id, what, timeoutMs)
    } finally {
      this.waiting.pop()
      if (this.waiting.length === 0) this.scheduleYield()
    }
  }

  private await(id: number, what: string, timeoutMs: number): unknown {
    for (;;) {
      const reply = this.replies.get(id)
      if (reply) {
        this.replies.delete(id)
        return this.unpack(reply)
      }
      const closed = this.closed as ProtocolError | undefined
      if (closed) {
        this.closedDuring ??= what
        throw new ProtocolError(`${closed.message} (while waiting for ${what})`)
      }
      const incoming = this.transport.receiveSync(timeoutMs)
      if (incoming === undefined) {
        const hung = `no answer to ${what} within ${timeoutMs} ms: the implementation is hung (its server was killed)`
        const error = new ServerEnded(hung, { exitCode: null, signal: null, killed: 'blocked' })
        this.closedDuring = what
        this.transport.kill(`hung in ${what}`)
        this.close(error)
        throw error
      }
      this.receive(incoming, false)
    }
  }

  notify(message: Message): void {
    if (!this.closed) this.send(message)
  }

  closeTransport(): void {
    this.transport.close()
  }

  close(error: ProtocolError): void {
    if (this.closed) return
    this.closed = error
    this.closedDuring ??= this.waiting.at(-1)
    this.codec.rejectAll(error)
    this.options.onClosed?.(error)
  }

  private send(message: Message): void {
    if (this.validate) {
      const problem = validateMessage(message)
      if (problem) throw new ProtocolError(`toolreg would send an invalid ${message.type} message: ${problem}`)
    }
    const line = JSON.stringify(message)
    if (TRACE) process.stderr.write(`${TRACE} ${performance.now().toFixed(2)} > ${line.slice(0, 160)}\n`)
    this.transport.send(line)
  }

  private receive(incoming: Incoming, idle: boolean): void {
    if (this.closed) return
    if ('closed' in incoming) return this.close(closedBy(incoming))
    const message = this.parse(incoming.line)
    if (message) this.dispatch(message, idle)
  }

  private dispatch(message: Message, idle: boolean): void {
    switch (message.type) {
      case 'reply':
      case 'welcome':
        if (!idle) this.replies.set(message.id, message)
        return
      case 'release':
        for (const [id, gen] of message.handles) this.codec.tables.release(id, gen)
        return
      case 'log':
        this.options.onLog?.(message.level, message.message)
        return
      case 'yield':
        return
      default:
        this.answer(message, idle)
    }
  }

  /** Serves a request: at once when nested; when idle, after this side's pending work ran. */
  private answer(message: Request, idle: boolean): void {
    const reply = this.serve(message)
    if (!idle) return this.notify(reply())
    afterPendingWork(() => {
      this.notify(reply())
      this.holdUntilYield()
    })
  }

  /**
   * After an idle answer: keep this side's event loop (its timers) still until the other side
   * yields or asks again; a new request is served like an idle one. Bounded, so a busy other
   * side cannot stall this one for long.
   */
  private holdUntilYield(): void {
    const deadline = Date.now() + HOLD_LIMIT_MS
    while (!this.closed) {
      const incoming = this.transport.receiveSync(Math.max(0, deadline - Date.now()))
      if (incoming === undefined) {
        if (TRACE) process.stderr.write(`${TRACE} hold ran out\n`)
        return
      }
      if ('closed' in incoming) return this.close(closedBy(incoming))
      const message = this.parse(incoming.line)
      if (!message || message.type === 'yield') return
      if (message.type === 'reply' || message.type === 'welcome' || message.type === 'release' || message.type === 'log') {
        this.dispatch(message, true)
        continue
      }
      return this.answer(message, true)
    }
  }

  /** Once our outermost request is answered and our pending work has run, say so. */
  private scheduleYield(): void {
    if (this.yieldScheduled) return
    this.yieldScheduled = true
    setImmediate(() => {
      this.yieldScheduled = false
      this.notify({ type: 'yield' })
    }).unref()
  }

  private parse(line: string): Message | undefined {
    if (TRACE) process.stderr.write(`${TRACE} ${performance.now().toFixed(2)} < ${line.slice(0, 160)}\n`)
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      message = undefined
    }
    const type = (message as { type?: unknown } | undefined)?.type
    if (typeof message !== 'object' || message === null || typeof type !== 'string') {
      this.transport.kill('it broke the protocol')
      this.close(new ProtocolError(`the other side wrote a line that is not a protocol message: ${excerpt(line)}`))
      return undefined
    }
    if (this.validate) {
      const problem = validateMessage(message)
      if (problem) {
        this.transport.kill('it broke the protocol')
        this.close(new ProtocolError(`the other side sent an invalid ${type} message (${problem}): ${excerpt(line)}`))
        return undefined
      }
    }
    return message as Message
  }

  /** Runs a request now; returns its reply, to be encoded when it is sent. */
  private serve(message: Request): () => Reply {
    const answer = (value: () => unknown) => (): Reply => {
      try {
        return { type: 'reply', id: message.id, value: this.codec.encode(value()) }
      } catch (error) {
        return this.thrown(message.id, error)
      }
    }
    try {
      const result = this.handle(message)
      if (message.type === 'hello') return () => result as Reply
      // Encoded after the drain, but handled now, as the caller would have: no false "unhandled".
      if (result instanceof Promise) result.catch(() => undefined)
      return answer(() => result)
    } catch (error) {
      return () => this.thrown(message.id, error)
    }
  }

  private handle(message: Request): unknown {
    switch (message.type) {
      case 'call': {
        const fn = this.codec.tables.own(message.fn)
        if (typeof fn !== 'function') throw new ProtocolError(`call to handle ${message.fn}, which is not a function of this side`)
        const args = this.codec.decodeList(message.args)
        return Reflect.apply(fn, UNKNOWN_RECEIVER, args)
      }
      case 'settle':
        this.codec.settle(message.promise, 'error' in message ? { error: this.codec.decode(message.error) } : { value: this.codec.decode(message.value) })
        return undefined
      case 'abort':
        this.codec.abort(message.signal, this.codec.decode(message.reason))
        return undefined
      case 'mutate': {
        const object = this.codec.tables.own(message.object)
        if (typeof object !== 'object' || object === null) throw new ProtocolError(`mutate of handle ${message.object}, which is not an object of this side`)
        const key = this.codec.decode(message.key) as PropertyKey
        return message.op === 'set' ? Reflect.set(object, key, this.codec.decode(message.value)) : Reflect.deleteProperty(object, key)
      }
      default:
        if (!this.options.onRequest) throw new ProtocolError(`unexpected ${message.type} request`)
        return this.options.onRequest(message)
    }
  }

  private thrown(id: number, error: unknown): Reply {
    try {
      return { type: 'reply', id, error: this.codec.encode(error) }
    } catch {
      return { type: 'reply', id, error: this.codec.encode(new Error('an error that could not be encoded')) }
    }
  }

  private unpack(reply: Reply | Welcome): unknown {
    if (reply.type === 'welcome') return reply
    if ('error' in reply) throw this.codec.decode(reply.error)
    return this.codec.decode(reply.value)
  }

  private outcome(outcome: { value: unknown } | { error: unknown }): { value: Encoded } | { error: Encoded } {
    return 'error' in outcome ? { error: this.codec.encode(outcome.error) } : { value: this.codec.encode(outcome.value) }
  }

  /** Settles and aborts happen in callbacks where a dead connection is nobody's error. */
  private quietly(action: () => unknown): void {
    if (this.closed) return
    try {
      action()
    } catch {
      // the connection died meanwhile; its error reaches the waiting calls
    }
  }

  private release(id: number, gen: number): void {
    if (this.releases.push([id, gen]) > 1) return
    setImmediate(() => {
      const handles = this.releases
      this.releases = []
      this.notify({ type: 'release', handles })
    }).unref()
  }
}

/**
 * Runs `then` once the microtasks queued so far (and those they queue) have run, before any timer
 * or I/O callback: a tick queued from the last microtask runs only when the queue is empty.
 */
function afterPendingWork(then: () => void): void {
  queueMicrotask(() => process.nextTick(then))
}

/** The longest a side holds its event loop for the other side to yield. */
const HOLD_LIMIT_MS = 250

/** TOOLREG_PROTOCOL_TRACE=1 prints every line sent and received, with the side's pid. */
const TRACE = process.env.TOOLREG_PROTOCOL_TRACE ? `[${process.pid}]` : ''

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

function excerpt(line: string): string {
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line)
}

/** The error a closed transport stands for: an end of the other side's own making, or a broken connection. */
function closedBy(incoming: { closed: string; ended?: ServerEnded['ended'] }): ProtocolError {
  return incoming.ended ? new ServerEnded(incoming.closed, incoming.ended) : new ProtocolError(incoming.closed)
}
