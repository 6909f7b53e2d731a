/**
 * The vitest test module `toolreg certify` runs: it loads the adapter named in the provided
 * configuration and defines the conformance suite for it.
 */
import { afterAll, inject, test } from 'vitest'
import './config.js'
import './watchdog-globals.js' // first: the baseline of globals is taken before the adapter loads
import { Supervisor } from './watchdog-supervisor.js'
import { defineConformanceSuite } from './define-suite.js'
import { loadAdapter } from './load-adapter.js'
import { connectRemote } from '../protocol/remote-adapter.js'

const config = inject('toolreg')
const watchdog = inject('toolregWatchdog')
const supervisor = watchdog ? new Supervisor(watchdog) : undefined
afterAll(() => supervisor?.stop())

try {
  const adapter = config.command ? connectRemote({ command: config.command, validate: config.validateProtocol === true }) : await loadAdapter(config.adapterPath)
  if ('close' in adapter) afterAll(() => (adapter as { close(): void }).close())
  defineConformanceSuite(adapter, {
    runs: config.runs,
    seed: config.seed,
    clauses: config.clauses,
    counterexampleDir: config.counterexampleDir,
    ...(config.shard ? { shard: config.shard } : {}),
    ...(config.corpusDir ? { corpusDir: config.corpusDir } : {}),
    ...(supervisor ? { supervisor } : {}),
  })
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  test('adapter', ({ task }) => {
    task.meta.toolreg = { clause: 'adapter', level: 'R', profile: 'core', status: 'error', error: message }
    throw new Error(message)
  })
}
