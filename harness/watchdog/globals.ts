/**
 * Changed globals (prototype pollution and the like), detected and reverted with
 * @fast-check/poisoning. Its baseline is taken when this module is first imported, so import it
 * before the adapter. The full check walks every global (a few milliseconds), so it runs after
 * each property; between cases (and on a timer, for a change that leaves the case unable to
 * settle, such as Object.prototype.then) only a fingerprint of the globals implementations
 * most often patch is compared (`globalsChanged`), and a change there triggers the full check at
 * once, so the case that polluted is the one that fails.
 */

import { isLazyWebGlobal, LAZY_WEB_GLOBALS, revertReplacedWebGlobals } from './lazy-web-globals.js'

// Node defines many globals lazily (AbortController, TextEncoder…): a getter that replaces itself
// with the value on first use. Touch them all first, so first use is not mistaken for a change
// (all but the web globals undici provides: lazy-web-globals.ts).
for (const key of Reflect.ownKeys(globalThis)) {
  if (isLazyWebGlobal(key)) continue
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
let ignoredRoots = new RegExp(`${RUNTIME_GLOBALS.source}|${LAZY_WEB_GLOBALS.source}`)
const rootsAtStart = new Set(Reflect.ownKeys(globalThis))

/** Prototypes whose own keys and values are fingerprinted: a key added, removed or replaced. */
const WATCHED_PROTOTYPES: readonly object[] = [Object.prototype, Array.prototype, Function.prototype, Promise.prototype, String.prototype]
/** Single globals implementations replace (a seeded random, a frozen clock, an instrumented Promise). */
const WATCHED_VALUES: readonly (() => unknown)[] = [
  () => globalThis.Promise, () => Promise.resolve, () => Promise.all, () => Promise.race, () => Math.random, () => Date.now, () => globalThis.Date,
  () => JSON.stringify, () => JSON.parse, () => Object.keys, () => Object.defineProperty, () => Array.isArray, () => Reflect.ownKeys,
  () => globalThis.setTimeout, () => globalThis.structuredClone,
]

function fingerprint(): unknown[] {
  const seen: unknown[] = []
  for (const proto of WATCHED_PROTOTYPES) {
    const keys = Reflect.ownKeys(proto)
    seen.push(keys.length)
    for (const key of keys) {
      const d = Reflect.getOwnPropertyDescriptor(proto, key)
      seen.push(key, d && ('value' in d ? d.value : d.get))
    }
  }
  for (const read of WATCHED_VALUES) seen.push(read())
  return seen
}

const baseline = fingerprint()

/** Fewer reads, for every stage the interpreter enters: key counts, and the identities most often replaced. */
const QUICK: readonly (() => unknown)[] = [
  () => Reflect.ownKeys(Object.prototype).length, () => Reflect.ownKeys(Array.prototype).length,
  ...WATCHED_VALUES,
  () => Promise.prototype.then, () => Array.prototype.map, () => Array.prototype.forEach, () => Array.prototype.push,
  () => Array.prototype.includes, () => Array.prototype.filter, () => Object.prototype.hasOwnProperty, () => Object.prototype.toString,
  () => Function.prototype.call, () => Function.prototype.apply, () => Function.prototype.bind,
]
const quickBaseline = QUICK.map((read) => read())

/** A quicker look than `globalsChanged` (a microsecond or so): misses a replaced method outside its list. */
export function globalsChangedQuick(): boolean {
  try {
    return QUICK.some((read, i) => read() !== quickBaseline[i])
  } catch {
    return true
  }
}

/** A cheap look (a few microseconds) at the globals most often polluted or replaced. */
export function globalsChanged(): boolean {
  try {
    const now = fingerprint()
    return now.length !== baseline.length || now.some((v, i) => v !== baseline[i])
  } catch {
    return true // a trap on a prototype: certainly a change
  }
}

/**
 * New names on globalThis are left alone: a library sets up such a name once, as it loads (a
 * registry `??=`-defined at import), and it is that library's module state, not a change the
 * harness reads. Every global that existed before, and everything reachable from it, is watched.
 */
function ignoreNewRoots(): void {
  const added = Reflect.ownKeys(globalThis).filter((key): key is string => typeof key === 'string' && !rootsAtStart.has(key) && !ignoredRoots.test(key))
  if (added.length === 0) return
  const names = added.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
  ignoredRoots = new RegExp(`${ignoredRoots.source}|^(${names})$`)
}

/** Reverts any change to the globals and describes it; undefined when nothing changed. */
export function revertChangedGlobals(): string | undefined {
  ignoreNewRoots()
  const webGlobals = revertReplacedWebGlobals().map((name) => `globalThis.${name} replaced`)
  let poisoned: string[] = []
  try {
    assertNoPoisoning({ ignoredRootRegex: ignoredRoots })
  } catch (error) {
    restoreGlobals({ ignoredRootRegex: ignoredRoots })
    poisoned = describeThrown(error, 2000).split('\n').slice(0, 5)
  }
  const changes = [...webGlobals, ...poisoned]
  return changes.length === 0 ? undefined : `the implementation changed globals (reverted before the next case): ${changes.join('; ')}`
}
