/**
 * A ConformanceAdapter for a registry in another process: `create()` asks the server for a
 * registry and returns its surface, whose methods are handles on the server's. Everything the
 * harness passes in (tool bodies, classifiers, listeners, guards, the approval service, signals)
 * crosses as a handle and runs here, under the harness's scheduler. When the server dies (exits,
 * hangs, breaks the protocol), the next `create()` throws once with what happened — so the
 * property it happened in is reported with that reason — and the one after starts a new server:
 * a crash costs one property, not the run. With `onEnded`, a server that exited or hung is
 * reported there as it happens (the certify child makes it the running case's failure), and
 * only a broken protocol still throws from the next `create()`.
 */
import type { ConformanceAdapter, Profile, RegistryConfig, RegistryUnderTest } from '../contract/adapter.js'
import { AdapterLoadError } from '../safe/load-adapter.js'
import { Connection, type ConnectionOptions } from './connection.js'
import { markRemote } from './remote-marks.js'

export interface RemoteAdapter extends ConformanceAdapter {
  /** Stops the server (the adapter can still start a new one). */
  close(): void
  /** How many servers this adapter started (1 + restarts). */
  readonly starts: number
}

/** Starts the server and reads its identity from the handshake; throws a ProtocolError if it fails. */
export function connectRemote(options: ConnectionOptions): RemoteAdapter {
  let connection = new Connection(options)
  let starts = 1
  const { implementation, profiles } = connection.welcome
  return markRemote<RemoteAdapter>({
    name: implementation.name,
    ...(implementation.version !== undefined ? { version: implementation.version } : {}),
    profiles: profiles as Profile[],
    get starts() {
      return starts
    },
    async create(config: RegistryConfig): Promise<RegistryUnderTest> {
      if (connection.dead) {
        const ended = connection.ended && options.onEnded !== undefined
        const death = ended ? undefined : connection.death()
        if (death) throw death
        connection.close()
        connection = new Connection(options)
        starts++
      }
      const current = connection
      try {
        const surface = current.peer.request({ type: 'create', config: current.peer.codec.encode(config) }, 'create()')
        return (await surface) as RegistryUnderTest
      } catch (error) {
        if (current.dead) current.death() // this create() already reports the death: the next one restarts
        throw error
      }
    },
    close() {
      connection.close()
    },
  })
}

/** For the command line: a handshake that fails is one clear line (exit 2), not a stack trace. */
export function remoteAdapter(command: string, validate: boolean, onEnded?: ConnectionOptions['onEnded']): RemoteAdapter {
  try {
    return connectRemote({ command, validate, ...(onEnded ? { onEnded } : {}) })
  } catch (error) {
    throw new AdapterLoadError(`protocol error: ${error instanceof Error ? error.message : String(error)}`)
  }
}
