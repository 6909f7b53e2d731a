/**
 * The server side: `serveAdapter(adapter)` turns any in-process ConformanceAdapter into a protocol
 * server on standard input and output, so a TypeScript registry needs no code of its own to be
 * certified out of process (fixtures/remote/reference-server.ts is this plus an import).
 */
import type { ConformanceAdapter, RegistryConfig, RegistryUnderTest } from '../contract/adapter.js'
import { PROTOCOL_VERSION, type Hello, type Request, type Welcome } from './messages.js'
import { Peer } from './peer.js'
import { ProtocolError } from './protocol-error.js'
import { registrySurface } from './registry-surface.js'
import { stdioTransport } from './stdio-transport.js'

export function serveAdapter(adapter: ConformanceAdapter): Peer {
  const transport = stdioTransport()
  const peer: Peer = new Peer(transport, {
    onRequest: (message) => answer(adapter, peer, message),
    onClosed: () => process.exit(0),
  })
  // Whatever escapes the registry is reported, not fatal: the harness sees it in the log.
  process.on('unhandledRejection', (reason) => peer.notify({ type: 'log', level: 'error', message: `unhandled rejection: ${describeValue(reason)}` }))
  peer.listen()
  return peer
}

function answer(adapter: ConformanceAdapter, peer: Peer, message: Request): unknown {
  if (message.type === 'hello') return welcome(adapter, peer, message)
  if (message.type !== 'create') throw new ProtocolError(`unexpected ${message.type} request`)
  const config = peer.codec.decode(message.config) as RegistryConfig
  const created = adapter.create(config)
  return created instanceof Promise ? created.then((registry: RegistryUnderTest) => registrySurface(registry)) : registrySurface(created)
}

function welcome(adapter: ConformanceAdapter, peer: Peer, hello: Hello): Welcome {
  if (hello.protocol !== PROTOCOL_VERSION) throw new ProtocolError(`this server speaks protocol ${PROTOCOL_VERSION}, the harness ${hello.protocol}`)
  peer.setValidate(hello.validate === true)
  return {
    type: 'welcome',
    id: hello.id,
    protocol: PROTOCOL_VERSION,
    implementation: { name: adapter.name, ...(adapter.version !== undefined ? { version: adapter.version } : {}) },
    profiles: [...adapter.profiles],
  }
}

function describeValue(value: unknown): string {
  try {
    return value instanceof Error ? `${value.name}: ${value.message}` : String(value)
  } catch {
    return 'an unprintable value'
  }
}
