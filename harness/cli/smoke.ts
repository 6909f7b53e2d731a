/** `toolreg smoke`: the adapter's wiring, step by step, with one clear error for the first broken step. */
import { describeThrown } from '../safe/safe-read.js'
import { loadAdapter } from '../safe/load-adapter.js'
import { remoteAdapter } from '../protocol/remote-adapter.js'
import { liveTool } from '../property/sample-tools.js'
import { show } from '../safe/safe-read.js'
import type { ConformanceAdapter, RegistryUnderTest } from '../contract/adapter.js'

export async function smoke(adapterPath: string | undefined, remote?: { command: string; validateProtocol: boolean }): Promise<number> {
  const adapter = remote ? remoteAdapter(remote.command, remote.validateProtocol) : await loadAdapter(adapterPath)
  try {
    return await smokeAdapter(adapter)
  } finally {
    ;(adapter as { close?(): void }).close?.()
  }
}

async function smokeAdapter(adapter: ConformanceAdapter): Promise<number> {
  const step = async <T>(what: string, action: () => T | Promise<T>): Promise<T> => {
    try {
      return await action()
    } catch (error) {
      throw new SmokeFailure(`${what} threw: ${describeThrown(error)}`)
    }
  }
  try {
    const registry: RegistryUnderTest = await step('create({})', () => adapter.create({}))
    const methods = ['agent', 'register', 'guard', 'onPreExecute', 'onExecute', 'onPostExecute', 'onResult', 'schemas', 'executionMode', 'execute'] as const
    for (const method of methods) {
      if (typeof registry[method] !== 'function') throw new SmokeFailure(`the registry from create() has no ${method}() method`)
    }
    await step('register(a valid tool)', () => registry.register(liveTool('smoke_tool', { execute: async () => ({ ok: true }) })))
    const call = { callId: 'smoke', name: 'smoke_tool', arguments: {}, signal: new AbortController().signal }
    const result = await step('execute(one call)', () => registry.execute(call))
    if (typeof result !== 'object' || result === null || result.isError !== false) throw new SmokeFailure(`one plain call did not succeed: ${show(result)}`)
    await step('dispose()', () => registry.dispose?.())
    console.log(`smoke: ${adapter.name} is wired correctly (create, register, execute, dispose)`)
    return 0
  } catch (error) {
    if (error instanceof SmokeFailure) {
      console.error(`smoke: ${adapter.name}: ${error.message}`)
      return 2
    }
    throw error
  }
}

class SmokeFailure extends Error {}
