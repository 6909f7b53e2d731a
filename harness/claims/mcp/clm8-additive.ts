/**
 * CLM-8: a tool annotated `destructiveHint: false` performs only additive updates. After some
 * earlier calls (earlier-calls.ts: so there is something to destroy), one call of the tool keeps
 * everything the named state and the resources held before it (additive.ts).
 */
import fc from 'fast-check'
import type { JsonValue } from '../../contract/spec.js'
import type { ArgumentsGenerator } from '../arguments.js'
import type { Stalls } from '../settle-within.js'
import type { Violation } from '../types.js'
import { ClaimViolation } from '../violation.js'
import { firstLoss } from './additive.js'
import { short } from './changes.js'
import type { Servers } from './target.js'
import type { McpCall, McpTool, Observation } from './types.js'
import { unlessStalled } from './unless-stalled.js'

export function additiveProperty(servers: Servers, tool: McpTool, args: ArgumentsGenerator, cases: fc.Arbitrary<[McpCall[], JsonValue]>, stalls: Stalls) {
  return fc.asyncProperty(cases, async ([earlier, input]) => {
    fc.pre(args.isValid(input))
    const { before, after } = await unlessStalled(stalls, () =>
      servers.withTrial(async (trial) => {
        for (const call of earlier) await trial.call(call)
        const before = await trial.observe()
        await trial.call({ tool: tool.name, arguments: input })
        return { before, after: await trial.observe() }
      }))
    const violations = (['state', 'resources'] as const).flatMap((part) => lossIn(part, before, after, tool.name))
    if (violations.length > 0) throw new ClaimViolation(violations)
  })
}

function lossIn(part: 'state' | 'resources', before: Observation, after: Observation, tool: string): Violation[] {
  const lost = firstLoss(before[part], after[part])
  if (lost === undefined) return []
  const where = lost.path === '' ? part : `${part}.${lost.path}`
  const detail = `one call of ${tool} (destructiveHint: false) removed or rewrote what the server held:\n` +
    `${where}: ${short(lost.before)} → ${short(lost.after)}`
  return [{ check: 'additive', detail, path: where }]
}
