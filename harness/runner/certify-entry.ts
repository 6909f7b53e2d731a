/**
 * The vitest test module `toolreg certify` runs: it loads the adapter named in the provided
 * configuration and defines the conformance suite for it.
 */
import { afterAll, inject, test } from 'vitest'
import './config.js'
import { defineConformanceSuite } from './define-suite.js'
import { loadAdapter } from './load-adapter.js'
import { connectRemote } from '../protocol/remote-adapter.js'

const config = inject('toolreg')

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
  })
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  test('adapter', ({ task }) => {
    task.meta.toolreg = { clause: 'adapter', level: 'R', profile: 'core', status: 'error', error: message }
    throw new Error(message)
  })
}
