/**
 * Calling a tool directly, the way a conforming registry's last stage does: the body gets frozen
 * arguments and a frozen run context (or write-recording ones, for CLM-1) and its own signal.
 * The outcome keeps a JSON snapshot of the value taken when the call settled, so later changes
 * to a value the tool still holds cannot blur a comparison.
 */
import type { JsonValue, ToolDefinition, ToolRunContext } from '../contract/spec.js'
import { frozenJson, recordingJson, recordingObject, type WriteLog } from './recording-proxy.js'

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: { message: string; code?: string } }

export interface CallOptions {
  callId: string
  signal: AbortSignal
  /** When given, arguments and the run context are write-recording Proxies logging here. */
  writes?: WriteLog
}

let calls = 0

export function runContext(def: ToolDefinition, args: JsonValue, options: CallOptions): ToolRunContext {
  const frozenArgs = options.writes ? recordingJson(args, 'arguments', options.writes) : frozenJson(args)
  const context: ToolRunContext = Object.freeze({
    token: Symbol(`toolreg.claims#${++calls}`),
    callId: options.callId,
    name: def.name,
    arguments: frozenArgs,
    signal: options.signal,
    deferContext() {},
    concludeTurn() {},
  })
  return options.writes ? recordingObject(context, 'exec', options.writes) : context
}

/** Runs the body once; never rejects. */
export async function callTool(def: ToolDefinition, args: JsonValue, options: CallOptions): Promise<CallOutcome> {
  const exec = runContext(def, args, options)
  try {
    return { ok: true, value: jsonSnapshot(await def.execute(exec.arguments, exec)) }
  } catch (error) {
    return { ok: false, error: describeError(error) }
  }
}

export function describeError(error: unknown): { message: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error)
  const hasCode = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  const code = hasCode ? (error as { code: string }).code : undefined
  return code === undefined ? { message } : { message, code }
}

/** A detached JSON copy when the value has one; the value itself otherwise (so a schema check still sees it). */
export function jsonSnapshot(value: unknown): unknown {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? value : JSON.parse(text)
  } catch {
    return value
  }
}
