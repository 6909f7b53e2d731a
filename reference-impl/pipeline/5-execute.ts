/**
 * Stage 5: `tools/execute`, the around-wrappers and the body. Honours EXE-1 (first registered is
 * outermost; the innermost next() runs the body; no next() means no body), EXE-2 (only the signal
 * may be replaced, and the body's signal is fused with the caller's so cancellation cannot be
 * hidden), EXE-3 (a throwing wrapper ends the call in error, without post-execute), EXE-4 (a
 * made-up success is validated and rendered like a body's value), CAN-2 (an abort before the body
 * starts means it never runs), CAN-3 (a started body is tracked so the call settles only after it),
 * CTX-1/CTX-2 (the run context collects deferred contexts and the conclusion while the body runs),
 * PRE-8 (each level's next() is idempotent), IN-1 (the body is the one fixed at entry, called with
 * the frozen arguments).
 */
import type { ToolExecutionResult, ToolRunContext, UserMessage } from '../../harness/contract/spec.js'
import { checkContent, checkContext } from '../content.js'
import { deepFreeze } from '../json/lossless.js'
import { aborted, failure } from '../outcomes.js'
import type { CallState, ExecuteOutcome } from './call-state.js'

export type { ExecuteOutcome } from './call-state.js'

export async function runExecute(call: CallState): Promise<ExecuteOutcome> {
  const produced = new WeakSet<object>()
  const level = (index: number, signal: AbortSignal): Promise<ToolExecutionResult> => {
    const wrapper = call.wrappers[index]
    if (!wrapper) return runBody(call, signal).then((result) => remember(produced, result))
    let below: Promise<ToolExecutionResult> | undefined
    const next = (overrides?: { signal?: AbortSignal }) => (below ??= level(index + 1, call.stages.fuseSignals(signal, overrides)))
    return Promise.resolve(wrapper(call.exec, next)).then((made) => remember(produced, call.stages.acceptWrapperResult(call, made, produced)))
  }
  try {
    return { result: await level(0, call.exec.signal), runPost: true }
  } catch {
    return { result: failure('A tools/execute wrapper failed.'), runPost: false }
  }
}

/**
 * A result next() hands a wrapper is frozen: a wrapper that returns it is trusted as is, so it
 * must not be one the wrapper rewrote on the way (EXE-4).
 */
function remember(produced: WeakSet<object>, result: ToolExecutionResult): ToolExecutionResult {
  produced.add(deepFreeze(result))
  return result
}

/** EXE-2: a replacement signal adds reasons to abort; it never removes the caller's. */
export function fuseSignals(signal: AbortSignal, overrides: { signal?: AbortSignal } | undefined): AbortSignal {
  const replacement = replacementIn(overrides)
  if (!(replacement instanceof AbortSignal) || replacement === signal) return signal
  return AbortSignal.any([signal, replacement])
}

/** What next()'s overrides hold as `signal`; undefined when reading it throws (a getter that throws replaces nothing). */
export function replacementIn(overrides: { signal?: AbortSignal } | undefined): unknown {
  try {
    return overrides?.signal
  } catch {
    return undefined
  }
}

async function runBody(call: CallState, signal: AbortSignal): Promise<ToolExecutionResult> {
  if (call.stages.isCancelled(signal)) return aborted()
  const { tool, exec } = call
  call.bodyOpen = true
  let pending: Promise<unknown>
  try {
    pending = Promise.resolve(tool.execute.call(tool.source, exec.arguments, runContext(call, signal)))
  } catch (error) {
    call.bodyOpen = false
    return call.stages.thrownToResult(error)
  }
  call.bodySettled = pending.then(
    () => undefined,
    () => undefined,
  )
  try {
    const raw = await pending
    call.bodyOpen = false
    if (call.contextError !== undefined) return failure(`Invalid deferred context: ${call.contextError}`, 'INVALID_TOOL_OUTPUT')
    return call.stages.valueToResult(call, raw)
  } catch (error) {
    call.bodyOpen = false
    return call.stages.thrownToResult(error)
  }
}

function runContext(call: CallState, signal: AbortSignal): ToolRunContext {
  const { exec } = call
  const ctx: ToolRunContext = {
    token: exec.token,
    callId: exec.callId,
    name: exec.name,
    arguments: exec.arguments,
    signal,
    deferContext(context: UserMessage) {
      if (!call.bodyOpen) return
      const checked = checkContext(context)
      if (checked.ok) call.contexts.push(checked.value)
      else call.contextError ??= checked.reason
    },
    concludeTurn() {
      if (call.bodyOpen) call.concluded = true
    },
  }
  if (exec.agent !== undefined) (ctx as { agent?: unknown }).agent = exec.agent
  if (exec.parent !== undefined) (ctx as { parent?: unknown }).parent = exec.parent
  return Object.freeze(ctx)
}

/** What a wrapper returned: the result next() gave it, or one it made up (EXE-4). */
export function acceptWrapperResult(call: CallState, made: unknown, produced: WeakSet<object>): ToolExecutionResult {
  if (typeof made === 'object' && made !== null && produced.has(made)) return made as ToolExecutionResult
  if (typeof made !== 'object' || made === null) throw new TypeError('wrapper returned no result')
  const { isError, value, error, content } = made as Record<string, unknown>
  if (isError === false) return call.stages.valueToResult(call, value)
  if (isError !== true || typeof error !== 'object' || error === null) throw new TypeError('wrapper returned a malformed result')
  const { message, code } = error as Record<string, unknown>
  const text = typeof message === 'string' ? message : 'A tools/execute wrapper ended the call.'
  const checked = content === undefined ? undefined : checkContent(content)
  return failure(text, typeof code === 'string' ? code : undefined, checked?.ok ? checked.value : undefined)
}
