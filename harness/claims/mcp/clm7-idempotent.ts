/**
 * CLM-7: a tool annotated `idempotentHint: true` has no additional effect when called again with
 * the same arguments: on a server in its pristine state, after some earlier calls
 * (earlier-calls.ts), the observation after a second identical call equals the one after the first.
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

export function idempotentProperty(servers: Servers, tool: McpTool, args: ArgumentsGenerator, cases: fc.Arbitrary<[McpCall[], JsonValue]>, stalls: Stalls) {
  return fc.asyncProperty(cases, async ([earlier, input]) => {
    fc.pre(args.isValid(input))
    const call = { tool: tool.name, arguments: input }
    const { once, twice } = await unlessStalled(stalls, () =>
      servers.withTrial(async (trial) => {
        for (const c of earlier) await trial.call(c)
        await trial.call(call)
        const once = await trial.observe()
        await trial.call(call)
        return { once, twice: await trial.observe() }
      }))
    if (isDeepStrictEqual(once, twice)) return
    const detail = `a second identical call of ${tool.name} (idempotentHint: true) changed what the server shows again:\n` +
      describeChanges(once as unknown as JsonValue, twice as unknown as JsonValue)
    throw new ClaimViolation([{ check: 'repeat', detail }])
  })
}
