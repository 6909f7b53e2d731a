/**
 * Helpers for the policy-side tests (DEF, SCH, MODE, IN, PRE, APR, GRD, SCP): a recording approval
 * service, casts for deliberately malformed values, and a controllable body that measures overlap
 * for the batch driver.
 */
import type { ApprovalRequest, ApprovalService } from '../../harness/contract/adapter.js'
import type { ApprovalOutcome, JsonValue, PreToolDecision, ToolDefinition, ToolExecutionResult } from '../../harness/contract/spec.js'
import { deferred, tool, type Deferred } from './helpers.js'

/** Treats a deliberately malformed value as the type a hook or service must return. */
export const asAny = <T>(value: unknown): T => value as T
export const asDecision = (value: unknown): PreToolDecision => value as PreToolDecision

/** An approval service that records every request and answers with `answer(req)`. */
export function recordingApproval(
  answer: (req: ApprovalRequest) => Promise<ApprovalOutcome> | ApprovalOutcome,
): ApprovalService & { readonly requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = []
  return {
    requests,
    request(req) {
      requests.push(req)
      return answer(req)
    },
  }
}

/** A pre-execute listener that asks, optionally with a reason. */
export const askListener = (reason?: string) => async (): Promise<PreToolDecision> =>
  reason === undefined ? { kind: 'ask' } : { kind: 'ask', reason }

/**
 * A body whose calls (identified by `args.id`) run until released by hand. It records the start
 * order, the number of bodies running at once, the maximum reached, and every start that
 * overlapped an exclusive body.
 */
export class ControlledBodies {
  readonly started: string[] = []
  active = 0
  maxActive = 0
  exclusiveRunning = 0
  violations: string[] = []
  private readonly gates = new Map<string, Deferred<void>>()

  private gate(id: string): Deferred<void> {
    let gate = this.gates.get(id)
    if (!gate) this.gates.set(id, (gate = deferred<void>()))
    return gate
  }

  release(id: string): void {
    this.gate(id).resolve()
  }

  /** A tool named `name` whose body is controlled here; `parallel` sets its classifier. */
  tool(name: string, parallel: boolean): ToolDefinition {
    return tool({
      name,
      ...(parallel ? { isConcurrencySafe: () => true } : {}),
      execute: async (args: JsonValue) => {
        const id = (args as { id: string }).id
        if (this.exclusiveRunning > 0 || (!parallel && this.active > 0)) this.violations.push(id)
        this.started.push(id)
        this.active++
        if (!parallel) this.exclusiveRunning++
        this.maxActive = Math.max(this.maxActive, this.active)
        await this.gate(id).promise
        this.active--
        if (!parallel) this.exclusiveRunning--
        return { id }
      },
    })
  }
}

/** The outcome's error code, as the adapter's default `errorCode` reads it. */
export const errorCode = (result: ToolExecutionResult): string | undefined => (result.isError ? result.error.code : undefined)
