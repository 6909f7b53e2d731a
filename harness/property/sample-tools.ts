/** Small live tool definitions for custom properties (scenario-driven suites use the interpreter). */
import { ANY_SCHEMA } from '../arbitraries/outputs.js'
import type { JsonValue, ToolDefinition } from '../contract/spec.js'

export function liveTool(name: string, overrides: Partial<ToolDefinition> & Record<PropertyKey, unknown> = {}): ToolDefinition {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object' },
    output: { schema: ANY_SCHEMA as JsonValue, render: (_args: JsonValue, value: JsonValue) => [{ type: 'text', text: JSON.stringify(value) }] },
    execute: async () => ({ tool: name }),
    ...overrides,
  } as ToolDefinition
}
