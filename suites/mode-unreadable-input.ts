/**
 * MODE-2 for an input a field of which cannot be read: "`executionMode` itself never throws". An
 * input whose `agent`, `parent`, `callId`, `signal` or `name` is an accessor that throws (a lazily
 * resolved session, a revoked handle) gets an answer like any other; a registry that reads the
 * input before its guard throws.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'

const FIELDS = ['agent', 'parent', 'callId', 'signal', 'name'] as const

export interface UnreadableInputCase {
  /** The field whose accessor throws, or every one of them. */
  field: (typeof FIELDS)[number] | 'every field'
  /** What the accessor throws: a TypeError, as reading through a revoked handle does, or an Error. */
  typeError: boolean
}

export const unreadableInput = custom(
  'MODE-2', 'executionMode never throws, even for an input a field of which throws when read',
  fc.record<UnreadableInputCase>({
    field: fc.oneof(fc.constant('every field' as const), fc.constantFrom(...FIELDS)),
    typeError: fc.boolean(),
  }),
  (c) => [
    'tool lookup, whose classifier answers true',
    `executionMode is asked for a call to lookup whose input ${c.field === 'every field' ? `fields ${FIELDS.join(', ')} are accessors` : `field ${
      c.field} is an accessor`} that throw${c.field === 'every field' ? '' : 's'} ${c.typeError ? 'a TypeError' : 'an Error'}`,
  ],
  async (ctx, c) => {
    const registry = await ctx.registry()
    registry.register(liveTool('lookup', { isConcurrencySafe: () => true }))
    const handed = input('lookup', {}, { callId: 'x-lookup' })
    for (const field of c.field === 'every field' ? FIELDS : [c.field]) {
      Object.defineProperty(handed, field, {
        enumerable: true,
        get: () => {
          throw c.typeError ? new TypeError('the session is closed') : new Error('the session is closed')
        },
      })
    }
    try {
      registry.executionMode(handed)
    } catch {
      ctx.fail(`executionMode threw for an input whose ${c.field === 'every field' ? FIELDS.join(', ') : c.field} throw${
        c.field === 'every field' ? '' : 's'} when read`)
    }
  },
)
