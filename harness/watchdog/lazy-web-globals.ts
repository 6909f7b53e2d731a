/**
 * The web globals Node defines lazily from undici (Headers, Request, Response, FormData,
 * MessageEvent). Reading one loads undici, some 25 ms of CPU in every child, and few
 * implementations use them, so globals.ts does not touch them before its baseline as it does the
 * other lazy globals. The poisoning check leaves them out; this module tells their first use (the
 * getter replaced by the value it returns) from a replacement.
 */
const NAMES = ['FormData', 'Headers', 'Request', 'Response', 'MessageEvent']

/** Each web global still lazy when this module loaded, with its getter and setter. */
const lazy = new Map<string, PropertyDescriptor>()
for (const name of NAMES) {
  const descriptor = Reflect.getOwnPropertyDescriptor(globalThis, name)
  if (descriptor?.get !== undefined && descriptor.configurable === true) lazy.set(name, descriptor)
}

/** Whether `key` is a web global left lazy; the others are touched and watched like any global. */
export const isLazyWebGlobal = (key: PropertyKey): boolean => typeof key === 'string' && lazy.has(key)

/** A pattern of the lazy web globals' names, for the poisoning check to leave out. */
export const LAZY_WEB_GLOBALS = new RegExp(`^(${[...lazy.keys()].join('|') || '(?!)'})$`)

/** The lazy web globals replaced (or deleted) since this module loaded, each put back as it was. */
export function revertReplacedWebGlobals(): string[] {
  const replaced: string[] = []
  for (const [name, original] of lazy) {
    const now = Reflect.getOwnPropertyDescriptor(globalThis, name)
    if (now?.get === original.get && now?.set === original.set) continue
    // Node's getter returns the value it loaded, loading it first if no one read it yet.
    let loaded: unknown
    try {
      loaded = original.get?.call(globalThis)
    } catch {
      loaded = undefined
    }
    if (now !== undefined && 'value' in now && loaded !== undefined && now.value === loaded) continue
    Reflect.defineProperty(globalThis, name, original)
    replaced.push(name)
  }
  return replaced
}
