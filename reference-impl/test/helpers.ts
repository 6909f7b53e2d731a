/**
 * Shared helpers for the example-based tests: a valid tool factory, a call factory, deferreds and
 * a stage-trace recorder that marks every pipeline stage a call passes through.
 */
import type { ToolDefinition, ToolExecutionInput, JsonValue } from '../../harness/contract/spec.js'
import type { ToolRegistry } from '../index.js'

export type { ToolRegistry }

/** A valid tool definition; every field can be overridden. */
export function tool(overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name: 'echo',
    description: 'Echoes a fixed value.',
    parameters: { type: 'object' },
    output: {
      schema: { type: 'object' },
      render: (_args: JsonValue, value: JsonValue) => [{ type: 'text', text: JSON.stringify(value) }],
    },
    execute: async () => ({ ok: true }),
    ...overrides,
  }
}

let callCount = 0

/** A well-typed execution input with a fresh, unaborted signal; `extra` overrides any field. */
export function call(name: string, args: unknown = {}, extra: Partial<ToolExecutionInput> = {}): ToolExecutionInput {
  return { callId: `call-${++callCount}`, name, arguments: args, signal: new AbortController().signal, ...extra }
}

export interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(reason: unknown): void
}

/** A promise resolved or rejected by hand. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** Lets every pending microtask and I/O callback run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export type Stage = 'pre' | 'guard' | 'wrapper' | 'body' | 'post' | 'finalize' | 'result'

/** Installs a pass-through listener at every registry stage that records its name in `log`. */
export function traceStages(registry: ToolRegistry, log: Stage[]): void {
  registry.onPreExecute(async (_exec, next) => {
    log.push('pre')
    return next()
  })
  registry.guard(() => {
    log.push('guard')
    return undefined
  })
  registry.onExecute(async (_exec, next) => {
    log.push('wrapper')
    return next()
  })
  registry.onPostExecute(async (_exec, _result, next) => {
    log.push('post')
    return next()
  })
  registry.onResult(() => {
    log.push('result')
  })
}

/** A tool whose body and finalizer record 'body' and 'finalize' in `log`. */
export function tracedTool(log: Stage[], overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  const base = tool(overrides)
  return {
    ...base,
    execute: (args, exec) => {
      log.push('body')
      return base.execute(args, exec)
    },
    finalizeContent: (exec, result) => {
      log.push('finalize')
      return base.finalizeContent?.(exec, result)
    },
  }
}
