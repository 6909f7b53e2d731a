/** The protocol itself failed: a malformed line, a dead or silent peer, a broken handshake. */
export class ProtocolError extends Error {
  override name = 'ProtocolError'
}
