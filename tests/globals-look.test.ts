/**
 * The globals look: a name a library defines on globalThis as it loads is its module state and
 * is kept; a global that existed before, replaced, is a change, reported and reverted.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { revertChangedGlobals } from '../harness/watchdog/globals.js'

const NEW_NAME = 'toolreg_test_translators_registry'
const realRandom = Math.random
const realResponse = globalThis.Response

afterEach(() => {
  Math.random = realRandom
  globalThis.Response = realResponse
  delete (globalThis as Record<string, unknown>)[NEW_NAME]
})

describe('the globals look', () => {
  it('keeps a name a library defined on globalThis (a registry set up once, as @langchain/core does)', () => {
    const registry = new Map([['anthropic', 1]])
    ;(globalThis as Record<string, unknown>)[NEW_NAME] ??= registry
    expect(revertChangedGlobals()).toBeUndefined()
    expect((globalThis as Record<string, unknown>)[NEW_NAME]).toBe(registry)
  })

  it('reports and reverts a global that existed before, replaced', () => {
    Math.random = () => 0.5
    expect(revertChangedGlobals()).toMatch(/^the implementation changed globals/)
    expect(Math.random).toBe(realRandom)
  })

  it('takes the first read of a web global Node loads lazily (Headers) for no change, and a replaced one for a change, reverted', () => {
    void globalThis.Headers
    expect(revertChangedGlobals()).toBeUndefined()
    globalThis.Response = class Forged {} as unknown as typeof Response
    expect(revertChangedGlobals()).toMatch(/^the implementation changed globals/)
    expect(globalThis.Response).toBe(realResponse)
  })
})
