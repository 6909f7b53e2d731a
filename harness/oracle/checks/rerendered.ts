/**
 * PST-1's "replace value (re-validated and re-rendered)" and EXE-4's "rendered like a body's value":
 * a success whose value a post-execute listener replaced, or a wrapper made up, carries the content
 * its tool's render makes of that value. The harness's
 * json-text render writes the value as JSON text, so the published text must read back as the
 * published value (key order is the registry's; only the JSON is compared).
 */
import { deepEqualJson } from '../json-equal.js'
import type { CallView } from './call-view.js'

export function replacedValueRerendered(view: CallView): void {
  const { e, record } = view
  const clause = e.outcome.clause
  if (e.outcome.isError || (clause !== 'PST-1' && clause !== 'EXE-4') || e.outcome.content !== undefined) return
  if (e.tool?.render.kind !== 'json-text') return
  const published = record.result as { isError?: unknown; value?: unknown; content?: unknown } | undefined
  if (published?.isError !== false) return
  const blocks = published.content
  const text = Array.isArray(blocks) && blocks.length === 1 ? (blocks[0] as { text?: unknown } | null)?.text : undefined
  if (typeof text === 'string' && deepEqualJson(parse(text), published.value)) return
  const by = clause === 'PST-1' ? 'post-execute' : 'a wrapper'
  view.report('rerendered')(clause, 'value-not-rerendered', `a value put in place by ${by} was published with content that does not render it`)
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return Symbol('not JSON')
  }
}
