/**
 * Stage 1: materializing the call. Honours IN-1 (arguments snapshotted once and deep-frozen; an
 * immutable execution), IN-2 (arguments that are not lossless JSON end the call before any policy),
 * IN-3 (a fresh token per execution), IN-4 (a malformed input is an outcome, never a rejection),
 * CAN-1 (a signal aborted at entry), CODE-1 and CODE-5 (a parent-less native call in code mode is
 * UNKNOWN_TOOL before any policy), FIN-1 (the tool, and so its finalizer, is fixed at entry).
 */
import type { ToolExecution, ToolExecutionResult } from '../../harness/contract/spec.js'
import type { RegisteredTool } from '../definition.js'
import { deepFreeze, snapshotJson } from '../json/lossless.js'
import { abortedBeforeDispatch, failure, invalidArgs, unknownTool } from '../outcomes.js'
import type { CallState, Materialized, RegistryContext } from './call-state.js'

export type { Materialized } from './call-state.js'

interface InputFields {
  callId: string
  name: string
  arguments: unknown
  signal: AbortSignal
  agent: unknown
  parent: unknown
}

let tokenCount = 0

export function materialize(registry: RegistryContext, input: unknown): Materialized {
  const fields = readInput(input)
  if (typeof fields === 'string') {
    const exec = makeExecution(
      { callId: '', name: '', arguments: null, signal: AbortSignal.abort(), agent: undefined, parent: undefined },
      null,
    )
    return { kind: 'unrouted', exec, result: failure(`Malformed execution input: ${fields}`), agent: undefined }
  }
  const tool = registry.stages.resolveTool(registry, fields.name, fields.agent, fields.parent)
  const args = snapshotJson(fields.arguments)
  const exec = makeExecution(fields, args.ok ? deepFreeze(args.value) : null)
  if (!tool) return { kind: 'unrouted', exec, result: unknownTool(fields.name), agent: fields.agent }
  const call = newCallState(registry, exec, tool, fields.agent)
  if (!args.ok) return { kind: 'ended', call, result: invalidArgs(`${args.reason} at ${args.path}`) }
  if (fields.signal.aborted) return { kind: 'ended', call, result: abortedBeforeDispatch() }
  return { kind: 'call', call }
}

/** The tool a call names, as the caller sees it; undefined when the name is not routable (CODE-1). */
export function resolveTool(registry: RegistryContext, name: string, agent: unknown, parent: unknown): RegisteredTool | undefined {
  const builtin = registry.builtins.get(name)
  if (builtin) return builtin
  const nested = parent !== undefined && registry.inFlight.has(parent)
  if (registry.mode === 'code' && !nested) return undefined
  return registry.tools.lookup(name, agent)
}

function readInput(input: unknown): InputFields | string {
  if (typeof input !== 'object' || input === null) return 'not an object'
  try {
    const i = input as Record<string, unknown>
    const { callId, name, signal } = i
    if (typeof callId !== 'string') return 'callId is not a string'
    if (typeof name !== 'string') return 'name is not a string'
    if (!(signal instanceof AbortSignal)) return 'signal is not an AbortSignal'
    return { callId, name, signal, arguments: i.arguments, agent: i.agent, parent: i.parent }
  } catch {
    return 'unreadable input'
  }
}

function makeExecution(fields: InputFields, args: ToolExecution['arguments']): ToolExecution {
  const exec: { -readonly [K in keyof ToolExecution]: ToolExecution[K] } = {
    token: Symbol(`toolreg.call#${++tokenCount}`),
    callId: fields.callId,
    name: fields.name,
    arguments: args,
    signal: fields.signal,
  }
  if (fields.agent !== undefined) exec.agent = fields.agent
  if (fields.parent !== undefined) exec.parent = fields.parent
  return Object.freeze(exec)
}

function newCallState(registry: RegistryContext, exec: ToolExecution, tool: RegisteredTool, agent: unknown): CallState {
  const { hooks } = registry
  return {
    stages: registry.stages,
    exec,
    tool,
    observers: hooks.observers.forCall(agent),
    pre: hooks.pre.forCall(agent),
    guards: hooks.guards.forCall(agent),
    wrappers: hooks.wrappers.forCall(agent),
    post: hooks.post.forCall(agent),
    contexts: [],
    contextError: undefined,
    concluded: false,
    bodyOpen: false,
    bodySettled: undefined,
  }
}
