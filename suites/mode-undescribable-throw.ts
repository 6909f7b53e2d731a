/**
 * MODE-2 for a classifier that throws what cannot be described: "a classifier that throws" is
 * exclusive, and "`executionMode` itself never throws". A Symbol, or an object with no prototype,
 * makes a template literal or String() throw: a registry that describes the throw (for a log line)
 * outside its guard throws from executionMode.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

const THROWN = {
  'a Symbol': () => Symbol('classifier'),
  'an object with no prototype': () => Object.create(null) as object,
} as const

export interface UndescribableCase {
  thrown: keyof typeof THROWN
  /** The classifier throws from a promise-returning function's body synchronously, or is a plain function. */
  arrow: boolean
}

export const undescribableThrow = custom(
  'MODE-2', 'a classifier throwing a Symbol or an object with no prototype makes the call exclusive, and executionMode does not throw',
  fc.record({ thrown: fc.constantFrom<UndescribableCase['thrown']>('a Symbol', 'an object with no prototype'), arrow: fc.boolean() }),
  (c) => [`tool lookup, whose classifier throws ${c.thrown}`, 'executionMode is asked for a call to lookup'],
  async (ctx, c) => {
    const registry = await ctx.registry()
    const classify = c.arrow
      ? () => { throw THROWN[c.thrown]() }
      : function classify(): boolean { throw THROWN[c.thrown]() }
    registry.register(liveTool('lookup', { isConcurrencySafe: classify }))
    let mode: unknown
    try {
      mode = registry.executionMode(input('lookup', {}, { callId: 'x-lookup' }))
    } catch {
      return ctx.fail(`executionMode threw for a call whose classifier throws ${c.thrown}`)
    }
    const kind = (mode as { kind?: unknown } | undefined)?.kind
    if (kind !== 'exclusive') ctx.fail(`a call whose classifier throws ${c.thrown} is ${String(kind)}, expected exclusive`)
  },
)
