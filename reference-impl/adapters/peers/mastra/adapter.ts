/**
 * Mastra (`@mastra/core`) as a tool layer: each `execute` is one `agent.generate(prompt, { maxSteps: 1,
 * abortSignal })` of an `Agent` whose tools are `createTool` tools and whose model is a scripted
 * double asking for exactly this call. Offline: no model, no network, no storage.
 *
 * Seams it has: a per-tool approval requirement (`requireApproval`: the contract's exact ask is
 * `true`, its exact allow `false`, any other value what the tool's `requireApproval` function
 * returns; an approval request suspends the run, and with no approval service here the call ends
 * there, refused), output validation (`outputSchema`, a JSON Schema, checked against the tool's
 * value), the run's abort signal handed to the tool (`context.abortSignal`) and error-to-result
 * conversion (a thrown tool becomes a `tool-result` whose output is `error-text`). It has no
 * pre-execute waterfall, no per-tool deny, no guards, no wrappers, no post-execute, no finalize
 * hook and no classification.
 *
 * Results are read from the tool message Mastra writes for the model (the step's `tool-result`
 * part): `error-text`/`error-json` outputs are failures, and so is Mastra's own validation error
 * (`{ error: true, message, validationErrors }`, what it returns for a value its `outputSchema`
 * rejects); every other output is the success Mastra published, as it published it.
 */
import type { ConformanceAdapter, RegistryUnderTest, Seam } from '../../../../harness/contract/adapter.js'
import type { ToolExecutionInput, ToolExecutionResult } from '../../../../harness/contract/spec.js'
import {
  abortedOutcome, exactPreDecision, failure, isAbort, lazyLibrary, peerRegistry, type PeerTurn, runContext, success, testDouble, textContent,
} from '../peer-registry.js'

export const MASTRA_SEAMS: readonly Seam[] = ['tool-asks', 'output-validation', 'cancellation', 'error-conversion']

/** Any JSON arguments: the model-facing schema is not what is certified here (no projection seam). */
const ANY_OBJECT = { type: 'object', additionalProperties: true }
const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 }

type Modules = { Agent: any; createTool: any; noopLogger: unknown; MastraLanguageModelV2Mock?: any }
type Part = { type: string; toolCallId?: string; output?: { type?: string; value?: unknown } }
type Generated = {
  finishReason?: string
  suspendPayload?: { toolCallId?: string }
  steps?: { content?: Part[] }[]
  toolResults?: { payload?: { toolCallId?: string; result?: unknown } }[]
}

/**
 * Which model double drives the agent: Mastra's own `MastraLanguageModelV2Mock`
 * (`@mastra/core/test-utils/llm-mock`), or, where that release's agent cannot drive its own mock
 * (1.0.4 wraps the mock's already-wrapped `doGenerate` again: "result.content is not iterable"), a
 * scripted object implementing the provider interface Mastra consumes (`specificationVersion: 'v2'`).
 */
export type MastraDouble = 'mastra-mock' | 'scripted-v2'

export function mastraAdapter(moduleName: string, version: string, double: MastraDouble): ConformanceAdapter {
  const name = `mastra@${version}`
  const load = lazyLibrary(name, moduleName, async (): Promise<Modules> => {
    const [agent, tools, logger, mock] = await Promise.all([
      import(`${moduleName}/agent`),
      import(`${moduleName}/tools`),
      import(`${moduleName}/logger`),
      double === 'mastra-mock' ? import(`${moduleName}/test-utils/llm-mock`) : Promise.resolve(undefined),
    ])
    return { Agent: agent.Agent, createTool: tools.createTool, noopLogger: logger.noopLogger, MastraLanguageModelV2Mock: mock?.MastraLanguageModelV2Mock }
  })
  return {
    name,
    version,
    profiles: ['core'],
    seams: MASTRA_SEAMS,
    async create(): Promise<RegistryUnderTest> {
      const modules = await load()
      const asks = new Map<string, unknown>()
      const registry = peerRegistry(name, (turn) => runTurn(modules, turn, asks))
      return {
        ...registry,
        decideTool(tool, decision) {
          asks.set(tool, decision)
          return () => void asks.delete(tool)
        },
      }
    },
  }
}

/** A per-tool decision as `requireApproval`: the exact ask and allow in its words, any other value returned as it is. */
function requireApproval(decision: unknown): boolean | (() => Promise<unknown>) {
  const exact = exactPreDecision(decision)?.kind
  return exact === 'ask' ? true : exact === 'allow' ? false : async () => decision
}

async function runTurn(m: Modules, turn: PeerTurn, asks: ReadonlyMap<string, unknown>): Promise<ToolExecutionResult> {
  const { input } = turn
  let bodyStarted = false
  const tools = Object.fromEntries(
    turn.tools.map((def) => [
      def.name,
      m.createTool({
        id: def.name,
        description: def.description,
        inputSchema: ANY_OBJECT,
        ...(def.output?.schema !== undefined ? { outputSchema: def.output.schema } : {}),
        ...(asks.has(def.name) ? { requireApproval: requireApproval(asks.get(def.name)) } : {}),
        execute: async (args: unknown, context?: { abortSignal?: AbortSignal }) => {
          bodyStarted = true
          return def.execute(args as never, runContext(input, def, args, context?.abortSignal))
        },
      }),
    ]),
  )
  const model = scriptedModel(m, input)
  const config = { id: 'toolreg', name: 'toolreg', instructions: 'call the tool', model, tools }
  const agent = testDouble('driver', 'Agent (@mastra/core/agent)', () => new m.Agent(config))
  // Its logs of the tools' failures are not results: silenced, as an app's test setup does.
  agent.__setLogger(m.noopLogger)
  let out: Generated
  try {
    out = await agent.generate('call the tool', { maxSteps: 1, abortSignal: input.signal })
  } catch (error) {
    if (isAbort(error, input.signal)) return abortedOutcome(bodyStarted, error instanceof Error ? error.message : 'aborted')
    throw error
  }
  if (out.finishReason === 'suspended' && out.suspendPayload?.toolCallId === input.callId) {
    return failure('the library asked for approval; no approval service is configured', [{ type: 'text', text: 'approval requested' }])
  }
  return outcomeOf(out, input, bodyStarted)
}

function outcomeOf(out: Generated, input: ToolExecutionInput, bodyStarted: boolean): ToolExecutionResult {
  const parts = (out.steps ?? []).flatMap((s) => s.content ?? [])
  const part = parts.find((p) => p.type === 'tool-result' && p.toolCallId === input.callId)
  if (!part) {
    // The run ended on the abort before any tool message: Mastra's finish reason says so.
    if (input.signal.aborted && (out.finishReason === 'aborted' || out.finishReason === undefined)) return abortedOutcome(bodyStarted, 'the run was aborted')
    // Mastra published no result for this call: say so, as it did.
    return undefined as never
  }
  const kind = part.output?.type
  const value = part.output?.value
  if (kind === 'error-text' || kind === 'error-json') {
    const message = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)
    if (input.signal.aborted && /abort/i.test(message)) return abortedOutcome(bodyStarted, message)
    return failure(message, [{ type: 'text', text: message }])
  }
  if (isValidationError(value)) {
    // Its output check's own words are the contract's INVALID_TOOL_OUTPUT.
    const code = /^Tool output validation failed/.test(value.message) ? 'INVALID_TOOL_OUTPUT' : undefined
    return failure(value.message, textContent(value.message), code)
  }
  return success(value, textContent(value))
}

/** Mastra's own word for a value or input its schema rejects (`ValidationError`), never a tool's success. */
function isValidationError(value: unknown): value is { error: true; message: string } {
  const v = value as { error?: unknown; message?: unknown; validationErrors?: unknown } | null
  return typeof v === 'object' && v !== null && v.error === true && typeof v.message === 'string' && 'validationErrors' in v
}

/**
 * The model: this call on the first request, plain text on any later one. Like a real provider's
 * fetch, a request on an aborted signal rejects with the signal's reason.
 */
function scriptedModel(m: Modules, input: ToolExecutionInput): object {
  let calls = 0
  const doGenerate = async (options: { abortSignal?: AbortSignal }) => {
    const signal = options?.abortSignal
    if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
    const call = { type: 'tool-call', toolCallId: input.callId, toolName: input.name, input: JSON.stringify(input.arguments ?? {}) }
    return calls++ === 0
      ? { content: [call], finishReason: 'tool-calls', usage: USAGE, warnings: [] }
      : { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage: USAGE, warnings: [] }
  }
  const Mock = m.MastraLanguageModelV2Mock
  if (Mock) return testDouble('driver', 'MastraLanguageModelV2Mock (@mastra/core/test-utils/llm-mock)', () => new Mock({ doGenerate }))
  return { specificationVersion: 'v2', provider: 'toolreg-scripted', modelId: 'scripted', supportedUrls: {}, doGenerate, doStream: doGenerate }
}
