/**
 * CTX-1 through post-execute: the body's deferred contexts appear in the outcome "also when
 * post-execute replaces the result" — whether a listener replaces the value, replaces the content
 * or blocks, the outcome it makes carries what the body deferred, in order.
 */
import fc from 'fast-check'
import { custom, input } from '../harness/property/custom-property.js'
import { liveTool } from '../harness/property/sample-tools.js'
import { seamsOf } from '../harness/property/vocabulary.js'
import type { JsonValue, PostToolDecision, ToolRunContext } from '../harness/contract/spec.js'
import { deferTwoNotes, unlessTwoNotes } from './ctx-two-notes.js'

type Change = 'value' | 'content' | 'block'

export interface AfterPostCase {
  /** What the post-execute listener does with the success, a registry each. */
  changes: Change[]
}

const DECISION: Record<Change, PostToolDecision> = {
  value: { kind: 'accept', value: { replaced: true } },
  content: { kind: 'accept', content: [{ type: 'text', text: 'new content' }] },
  block: { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }] },
}

const did = (change: Change, tense: 'now' | 'past') =>
  (change === 'block' ? (tense === 'now' ? 'blocks' : 'blocked') : `${tense === 'now' ? 'replaces' : 'replaced'} the ${change}`)

const story = (c: AfterPostCase): string[] => [
  'tool target: its body defers "note 1" and "note 2", then returns { ok: true }',
  `in a registry each, a post-execute listener that ${c.changes.map((change) => did(change, 'now')).join(', then one that ')}`,
  'one call to target: the outcome carries both notes, in order',
]

export const contextsAfterPost = custom(
  'CTX-1', 'contexts the body deferred stay on the outcome a post-execute listener makes',
  fc.record({ changes: fc.shuffledSubarray<Change>(['value', 'content', 'block'], { minLength: 1 }) }),
  story,
  async (ctx, c) => {
    if (!seamsOf(ctx.adapter).has('post-execute')) return
    for (const change of c.changes) {
      const registry = await ctx.registry()
      registry.register(liveTool('target', {
        execute: async (_args: JsonValue, exec: ToolRunContext) => {
          deferTwoNotes(exec)
          return { ok: true }
        },
      }))
      registry.onPostExecute(async () => DECISION[change])
      const result = await registry.execute(input('target', {}, { callId: 'x-after-post' }))
      const texts = unlessTwoNotes(result)
      if (texts !== undefined) return ctx.fail(`after a post-execute listener ${did(change, 'past')}, the outcome carried contexts ${texts}`)
    }
  },
)
