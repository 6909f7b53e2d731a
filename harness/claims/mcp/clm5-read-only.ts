/**
 * CLM-5: a tool annotated `readOnlyHint: true` does not modify its environment. On a server in
 * its pristine state, after some earlier calls (earlier-calls.ts), the observation after one call
 * of the tool (named state, resources, the observers' answers) equals the observation before it.
 */
import fc from 'fast-check'
import { isDeepStrictEqual } from 'node:util'
import type { JsonValue } from '../../contract/spec.js'
import type { ArgumentsGenerator } from '../arguments.js'
import type { Stalls } from '../settle-within.js'
import { ClaimViolation } from '../violation.js'
import { describeChanges } from './changes.js'
import type { Servers } from './target.js'
import type { McpCall, McpTool } from './types.js'
import { unlessStalled } from './unless-stalled.js'

export function readOnlyProperty(servers: Servers, tool: McpTool, args: ArgumentsGenerator, cases: fc.Arbitrary<[McpCall[], JsonValue]>, stalls: Stalls) {
  return fc.asyncProperty(cases, async ([earlier, input]) => {
    fc.pre(args.isValid(input))
    const { before, after } = await unlessStalled(stalls, () =>
      servers.withTrial(async (trial) => {
        for (const call of earlier) await trial.call(call)
        const before = await trial.observe()
        await trial.call({ tool: tool.name, arguments: input })
        const after = await trial.observe()
        if (earlier.length === 0 && isDeepStrictEqual(before, after)) trial.leftClean()
        return { before, after }
      }))
    if (isDeepStrictEqual(before, after)) return
    const changes = describeChanges(before as unknown as JsonValue, after as unknown as JsonValue)
    const detail = `one call of ${tool.name} (readOnlyHint: true) changed what the server shows:\n${changes}`
    throw new ClaimViolation([{ check: 'state', detail }])
  })
}
