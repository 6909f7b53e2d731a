/**
 * One server process and the SDK client connected to it over stdio: its tools as listed, calls
 * with a time bound, and the resources it lists. Closing ends the process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { JsonValue } from '../../contract/spec.js'
import { jsonSnapshot } from '../call-tool.js'
import type { ServerCommand } from './server-command.js'
import type { McpOutcome, McpTool, ToolHints } from './types.js'

/** A call that has not answered within its bound: the trial is skipped and the process discarded. */
export class CallStalled extends Error {}

/** The server could not be started, or broke the protocol: not a verdict, an unusable server (exit 2). */
export class ServerError extends Error {}

export interface ServerSession {
  readonly tools: readonly McpTool[]
  readonly hasResources: boolean
  call(tool: string, args: JsonValue, timeoutMs: number): Promise<McpOutcome>
  /** resources/list with every listed resource's contents; undefined without the capability. */
  resources(timeoutMs: number): Promise<JsonValue | undefined>
  close(): Promise<void>
}

const MAX_RESOURCES_READ = 50

export async function startServer(server: ServerCommand, startTimeoutMs: number): Promise<ServerSession> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), TOOLREG_SANDBOX: server.sandbox },
    stderr: 'ignore',
  })
  const client = new Client({ name: 'toolreg-check-mcp', version: '1' })
  let listed: McpTool[]
  try {
    await client.connect(transport, { timeout: startTimeoutMs })
    listed = (await client.listTools(undefined, { timeout: startTimeoutMs })).tools.map(toTool)
  } catch (error) {
    await client.close().catch(() => {})
    throw new ServerError(`the server did not start (${server.command} ${server.args.join(' ')}): ${messageOf(error)}`)
  }
  const hasResources = client.getServerCapabilities()?.resources !== undefined
  return {
    tools: listed,
    hasResources,
    async call(tool, args, timeoutMs) {
      try {
        const result = await client.callTool({ name: tool, arguments: args as Record<string, unknown> }, undefined, { timeout: timeoutMs })
        return { result: jsonSnapshot(result) as JsonValue }
      } catch (error) {
        if (isTimeout(error)) throw new CallStalled(`${tool} did not answer within ${timeoutMs} ms`)
        const code = (error as { code?: unknown })?.code
        return { requestError: { ...(typeof code === 'number' ? { code } : {}), message: messageOf(error) } }
      }
    },
    async resources(timeoutMs) {
      if (!hasResources) return undefined
      try {
        // By URI: the order a server lists its resources in is not part of its state.
        const listed = (await client.listResources(undefined, { timeout: timeoutMs })).resources
        const resources = [...listed].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))
        // A resource the server lists but cannot read is seen as such: that is what it shows.
        const read = await Promise.all(resources.slice(0, MAX_RESOURCES_READ).map((r) =>
          client.readResource({ uri: r.uri }, { timeout: timeoutMs }).then((answer) => answer.contents, (error: unknown) => {
            if (isTimeout(error)) throw error
            return { readError: messageOf(error) }
          })))
        return withJsonTexts(jsonSnapshot(resources.map((r, i) => ({ ...r, contents: read[i] ?? null }))) as JsonValue)
      } catch (error) {
        if (isTimeout(error)) throw new CallStalled(`resources/list or resources/read did not answer within ${timeoutMs} ms`)
        throw new ServerError(`the server failed resources/list or resources/read: ${messageOf(error)}`)
      }
    },
    async close() {
      // Whatever it held is put back or thrown away: no reason to wait for a graceful exit.
      const pid = transport.pid
      if (pid !== null) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // already gone
        }
      }
      await client.close().catch(() => {})
    },
  }
}

function toTool(tool: { name: string; inputSchema: unknown; annotations?: ToolHints | undefined }): McpTool {
  const hints: ToolHints = {}
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) {
    if (typeof tool.annotations?.[key] === 'boolean') hints[key] = tool.annotations[key]
  }
  return { name: tool.name, inputSchema: jsonSnapshot(tool.inputSchema) as JsonValue, hints }
}

/** Resource texts that are JSON documents, as their values: a graph that grew reads as additions, not as a rewritten string. */
function withJsonTexts(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(withJsonTexts)
  if (typeof value !== 'object' || value === null) return value
  const out: { [k: string]: JsonValue } = {}
  for (const [key, v] of Object.entries(value)) out[key] = key === 'text' && typeof v === 'string' ? jsonDocument(v) : withJsonTexts(v)
  return out
}

function jsonDocument(text: string): JsonValue {
  try {
    const parsed = JSON.parse(text) as JsonValue
    return typeof parsed === 'object' && parsed !== null ? parsed : text
  } catch {
    return text
  }
}

const isTimeout = (error: unknown) => (error as { code?: unknown })?.code === -32001
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
