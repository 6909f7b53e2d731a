/** Calls of any of some tools, each with arguments valid for it (CLM-6's concurrent calls, CLM-8's earlier calls). */
import fc from 'fast-check'
import type { JsonValue } from '../../contract/spec.js'
import { mcpArgumentsFor } from './mcp-arguments.js'
import type { McpCall, McpTool } from './types.js'

export function callArbitrary(tools: readonly McpTool[], words: readonly string[], onlyWords = false): fc.Arbitrary<McpCall> | undefined {
  if (tools.length === 0) return undefined
  return fc.oneof(...tools.map((tool) => {
    const args = mcpArgumentsFor(tool.name, tool.inputSchema, words, onlyWords)
    return args.arbitrary.filter(args.isValid).map((input: JsonValue): McpCall => ({ tool: tool.name, arguments: input }))
  }))
}
