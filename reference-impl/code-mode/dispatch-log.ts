/**
 * The `tools/code-dispatch-log` waterfall. Honours CODE-4: listeners may rewrite only the copy of
 * a sub-call's content that is persisted; a throwing listener or an invalid rewrite leaves the
 * original content logged.
 */
import type { CodeDispatchLogListener, CodeDispatchRecord } from '../../harness/contract/adapter.js'
import type { ContentBlock } from '../../harness/contract/spec.js'
import { checkContent } from '../content.js'
import { deepFreeze } from '../json/lossless.js'
import { runWaterfall } from '../pipeline/waterfall.js'

const INVALID = Symbol('invalid')

export async function logDispatch(
  listeners: readonly CodeDispatchLogListener[],
  record: CodeDispatchRecord,
): Promise<CodeDispatchRecord> {
  const seen = deepFreeze(structuredClone(record))
  const normalize = (raw: unknown): ContentBlock[] | typeof INVALID => {
    const checked = checkContent(raw)
    return checked.ok ? checked.value : INVALID
  }
  const wrapped = listeners.map(
    (listener) => (next: () => Promise<ContentBlock[] | typeof INVALID>) =>
      listener(seen, next as () => Promise<ContentBlock[]>),
  )
  const { decision, threw } = await runWaterfall(wrapped, () => structuredClone(record.content), normalize)
  const content = threw || decision === undefined || decision === INVALID ? structuredClone(record.content) : decision
  return deepFreeze({ ...structuredClone(record), content })
}
