/**
 * The child process `toolreg certify` runs the implementation in: it loads the adapter (or
 * connects to the protocol server), and checks the clauses the supervisor hands it, one at a
 * time, under the watchdog and the escape traps, answering with one verdict each. Nothing it
 * sends is trusted beyond its shape: the supervisor judges deaths and budgets itself; silences and
 * deadlines the watchdog thread judges here, in own time, and ends this process (the supervisor
 * keeps a longer backstop).
 */
import '../watchdog/globals.js' // first: the baseline of globals is taken before the adapter loads
import type { ConformanceAdapter, RegistryUnderTest } from '../contract/adapter.js'
import { remoteAdapter } from '../protocol/remote-adapter.js'
import { seamMismatches } from '../seams.js'
import { PROPERTIES } from '../../suites/index.js'
import { HEARTBEAT_MS, type AdapterIdentity, type ChildInit, type FromChild, type ToChild } from './child-messages.js'
import { jsonSafe } from '../safe/json-safe.js'
import { judgeClause, propertyInfo } from '../engine/judge-clause.js'
import { loadAdapter } from '../safe/load-adapter.js'
import { describeThrown, readOnce } from '../safe/safe-read.js'
import { liveTool } from '../property/sample-tools.js'
import { infoVerdict, type Verdict } from '../engine/verdict.js'
import { Supervisor } from '../watchdog/case-supervisor.js'
import { endOrphan, supervisorPid } from '../safe/process-tree.mjs'

// Started before the run was resolved, perhaps (early-child.mjs): the run comes as the first message.
const parent = supervisorPid()
const exitBeforeInit = () => endOrphan(parent)
process.once('disconnect', exitBeforeInit)
// A supervisor killed while this process was still loading: the channel may have closed before anyone listened.
if (!process.connected || process.ppid !== parent) exitBeforeInit()
const init = await new Promise<ChildInit>((resolve) => {
  const first = (message: ToChild) => {
    if (message.type !== 'init') return
    process.off('message', first)
    resolve(message.init)
  }
  process.on('message', first)
})
process.off('disconnect', exitBeforeInit)

// The harness's end of the channel, kept before the escape traps replace process.send for the adapter.
const toSupervisor = process.send?.bind(process)

/**
 * Never throws, and a write that fails (EPIPE: the supervisor was killed) goes to the callback, not
 * to an 'error' event that would surface as an uncaught exception while the channel is closing.
 */
function send(message: FromChild): void {
  if (!process.connected) return
  const failed = (error: Error | null) => {
    if (error && process.ppid !== parent) endOrphan(parent)
  }
  try {
    toSupervisor?.(message, undefined, undefined, failed)
  } catch {
    try {
      toSupervisor?.(jsonSafe(message, { maxString: 100_000 }) as FromChild, undefined, undefined, failed)
    } catch {
      // the channel is closing: 'disconnect' follows
    }
  }
}

const watchdog = { dir: init.stateDir, blockedAfterMs: init.stallReportMs, limits: { silenceMs: init.loadSilenceMs } }
const supervisor = new Supervisor(watchdog, (escape) => send({ type: 'escape', escape }))
setInterval(() => send({ type: 'beat', cases: supervisor.casesStarted }), HEARTBEAT_MS).unref()
// The channel closes only when the supervisor is gone (it asks its children to stop): nothing may outlive it.
process.on('disconnect', () => endOrphan(parent))

async function open(): Promise<ConformanceAdapter | undefined> {
  // The first heartbeat goes out before the adapter's own code runs: from here on, silence means a blocked loop.
  send({ type: 'beat', cases: 0 })
  await new Promise((resolve) => setImmediate(resolve))
  supervisor.propertyStarted({ id: 'adapter', title: 'loading the adapter' })
  try {
    const { command, validateProtocol, adapterPath } = init.target
    const onEnded = supervisor.serverEnded.bind(supervisor)
    return command ? remoteAdapter(command, validateProtocol, onEnded) : await loadAdapter(adapterPath)
  } catch (error) {
    send({ type: 'load-error', error: error instanceof Error ? error.message : describeThrown(error) })
    return undefined
  } finally {
    supervisor.propertyEnded()
  }
}

const identityOf = (a: ConformanceAdapter): AdapterIdentity => ({
  name: a.name,
  ...(a.version !== undefined ? { version: a.version } : {}),
  profiles: [...a.profiles],
  ...(a.seams !== undefined ? { seams: [...a.seams] } : {}),
})

/** One clear line for an adapter that cannot even build a registry, instead of a failure per clause. */
async function preflight(adapter: ConformanceAdapter): Promise<FromChild> {
  supervisor.propertyStarted({ id: 'adapter', title: 'create() and dispose() once' })
  try {
    let registry: RegistryUnderTest
    try {
      registry = await adapter.create({})
    } catch (error) {
      return { type: 'preflight', ok: false, error: `adapter ${adapter.name}: create() threw: ${describeThrown(error)}` }
    }
    const shared = await sharesState(adapter, registry)
    try {
      await registry.dispose?.()
    } catch (error) {
      return { type: 'preflight', ok: false, error: `adapter ${adapter.name}: dispose() threw: ${describeThrown(error)}` }
    }
    if (shared) return { type: 'preflight', ok: false, error: `adapter ${adapter.name}: create() must return isolated registries: ${shared}` }
    return { type: 'preflight', ok: true, seamErrors: await seamMismatches(adapter) }
  } finally {
    supervisor.propertyEnded()
  }
}

const PROBE = 'toolreg_isolation_probe'

/**
 * Whether a second registry already runs a tool registered in the first (`create()` handing out
 * shared state): described, or undefined. What the registries cannot do (no projection, a
 * refused registration) is left to the clauses.
 */
async function sharesState(adapter: ConformanceAdapter, first: RegistryUnderTest): Promise<string | undefined> {
  let unregister: (() => void) | undefined
  try {
    unregister = first.register(liveTool(PROBE))
  } catch {
    return undefined
  }
  try {
    const second = await adapter.create({})
    try {
      const input = { callId: 'toolreg-isolation-probe', name: PROBE, arguments: {}, signal: new AbortController().signal }
      const outcome = readOnce(await second.execute(input), []) as { isError?: unknown }
      return outcome.isError === false ? `a registry from a second create() ran the tool ${PROBE}, registered only in the first` : undefined
    } finally {
      await second.dispose?.()
    }
  } catch {
    return undefined
  } finally {
    try {
      unregister()
    } catch {
      // the clauses judge unregistering
    }
  }
}

async function check(adapter: ConformanceAdapter, request: Extract<ToChild, { type: 'run' }>): Promise<Verdict> {
  const property = PROPERTIES.find((p) => p.id === request.clause)
  if (!property) throw new Error(`no property checks ${request.clause}`)
  send({ type: 'started', clause: property.id })
  try {
    return await judgeClause(property, adapter, { runs: request.runs, seed: request.seed, examples: request.examples, supervisor })
  } catch (error) {
    return { ...infoVerdict(propertyInfo(property)), status: 'error', error: `harness error while checking ${property.id}: ${describeThrown(error)}` }
  }
}

const adapter = await open()
if (adapter) {
  send({ type: 'ready', adapter: identityOf(adapter), properties: PROPERTIES.map(propertyInfo) })
  let turn = Promise.resolve()
  process.on('message', (message: ToChild) => {
    turn = turn.then(async () => {
      if (message.type === 'init') return
      if (message.type === 'stop') {
        ;(adapter as { close?: () => void }).close?.()
        return supervisor.exitCleanly(0)
      }
      supervisor.requestLimits(message.limits)
      send(message.type === 'preflight' ? await preflight(adapter) : { type: 'verdict', verdict: await check(adapter, message) })
      supervisor.requestLimits(undefined)
    })
  })
} else {
  // An adapter that did not load leaves nothing to run: the supervisor's stop is the end (unheard,
  // it cost every load error the supervisor's whole stop grace, 5 s).
  process.on('message', (message: ToChild) => void (message.type === 'stop' && supervisor.exitCleanly(0)))
}
