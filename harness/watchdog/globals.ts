/**
 * Changed globals (prototype pollution and the like), detected and reverted with
 * @fast-check/poisoning. Its baseline is taken when this module is first imported, so import it
 * before the adapter. The full check walks every global (a few milliseconds), so it runs after
 * each property; between cases only Object.prototype's own keys are counted, and a change there
 * triggers the full check at once, so the case that polluted is the one that fails.
 */

// Node defines many globals lazily (AbortController, TextEncoder…): a getter that replaces itself
// with the value on first use. Touch them all first, so first use is not mistaken for a change.
for (const key of Reflect.ownKeys(globalThis)) {
  try {
    void (globalThis as Record<PropertyKey, unknown>)[key]
  } catch {
    // a global that throws when read stays as it is
  }
}
const { assertNoPoisoning, restoreGlobals } = await import('@fast-check/poisoning')
const { describeThrown } = await import('../safe/safe-read.js')

/** Globals the test runner and Node itself may add while the suites run. */
const RUNTIME_GLOBALS = /^(__vitest|__VITEST|__vite|__coverage__|_|\$|Symbol\(|__toolreg)/

const objectPrototypeKeys = Reflect.ownKeys(Object.prototype).length

/** A cheap look for the most common pollution: a key added to (or removed from) Object.prototype. */
export const objectPrototypeChanged = (): boolean => Reflect.ownKeys(Object.prototype).length !== objectPrototypeKeys

/** Reverts any change to the globals and describes it; undefined when nothing changed. */
export function revertChangedGlobals(): string | undefined {
  try {
    assertNoPoisoning({ ignoredRootRegex: RUNTIME_GLOBALS })
    return undefined
  } catch (error) {
    restoreGlobals({ ignoredRootRegex: RUNTIME_GLOBALS })
    const what = describeThrown(error, 2000)
    return `the implementation changed globals (reverted before the next case): ${what.split('\n').slice(0, 5).join('; ')}`
  }
}
