/** Builders for the outcomes the registry itself produces. Codes are the SPEC's error codes. */
import type { ContentBlock, ErrorCode, ToolFailure, ToolSuccess, JsonValue } from '../harness/contract/spec.js'

export function failure(message: string, code?: ErrorCode | string, content?: ContentBlock[]): ToolFailure {
  const error: ToolFailure['error'] = code === undefined ? { message } : { message, code }
  return { isError: true, error, content: content ?? [{ type: 'text', text: message }] }
}

export function success(value: JsonValue, content: ContentBlock[], meta?: JsonValue): ToolSuccess {
  return meta === undefined ? { isError: false, value, content } : { isError: false, value, content, meta }
}

export const unknownTool = (name: string): ToolFailure => failure(`Unknown tool: ${name}`, 'UNKNOWN_TOOL')
export const abortedBeforeDispatch = (): ToolFailure =>
  failure('The call was aborted before dispatch.', 'ABORTED_BEFORE_DISPATCH')
export const aborted = (): ToolFailure => failure('The call was aborted.', 'ABORTED')
export const invalidOutput = (why: string): ToolFailure => failure(`Invalid tool output: ${why}`, 'INVALID_TOOL_OUTPUT')
export const invalidArgs = (why: string): ToolFailure => failure(`Invalid arguments: ${why}`, 'INVALID_ARGS')
export const denied = (reason: string): ToolFailure => failure(reason)
