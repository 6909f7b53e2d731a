/** The protocol itself failed: a malformed line, a dead or silent peer, a broken handshake. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
}

/** How a server process ended: on its own (an exit code or a signal), or killed because it went silent. */
export interface ServerEnd {
  exitCode: number | null
  signal: string | null
  killed?: 'blocked'
}

/** The server is gone because of what its process did: it exited, was ended by a signal, or hung. */
export class ServerEnded extends ProtocolError {
  override name = 'ServerEnded'
  constructor(message: string, readonly ended: ServerEnd) {
    super(message)
  }
}
