/**
 * The MCP claims checker: starts the server once to list its tools and choose the observers,
 * then checks each claim its tools' annotations make (CLM-5, -7, -8 per tool; CLM-6 for its
 * read-only tools together), each as its own fast-check run or one saved case replayed.
 */
import { resolve } from 'node:path'
import { runClaim } from '../run-claim.js'
import type { ClaimSettings } from '../settings.js'
import type { ClaimVerdict, McpClaimId } from '../types.js'
import { comparableReadOnly, mcpClaimRun, type SavedMcpCase } from './mcp-claim-runs.js'
import { nameState } from './named-state.js'
import { chooseObservers } from './observation.js'
import { makeSandbox } from './sandbox.js'
import { expandSandbox, hideSandbox, showSandbox, withSandbox } from './server-command.js'
import { ServerError, startServer } from './server-session.js'
import { Servers, type McpSettings, type McpTarget } from './target.js'
import type { McpTool, ToolHints } from './types.js'
import { vocabulary } from './vocabulary.js'

/** The name CLM-6's verdict and saved cases go under: the claim is the read-only tools' together. */
export const READ_ONLY_TOOLS = '(read-only tools)'

export interface McpServerOptions {
  /** The command line after `--`; `{sandbox}` stands for the run's sandbox directory. */
  command: readonly string[]
  /** The server's state, a file or a directory (`{sandbox}` allowed); default: the sandbox. */
  state?: string
  /** Check only these tools (CLM-6 still calls every read-only tool). */
  tools?: readonly string[]
}

export interface McpToolVerdicts {
  name: string
  hints: ToolHints
  verdicts: ClaimVerdict[]
}

export interface McpClaimsResult {
  tools: McpToolVerdicts[]
  notes: string[]
  errors: string[]
  serversStarted: number
}

/** One saved case to replay instead of generating: its claim and tool. */
export interface McpReplay extends SavedMcpCase {
  clause: McpClaimId
  tool: string
}

export async function checkServer(options: McpServerOptions, settings: ClaimSettings & McpSettings, replay?: McpReplay): Promise<McpClaimsResult> {
  const sandbox = await makeSandbox()
  try {
    const server = withSandbox(options.command, sandbox.dir)
    const statePath = resolve(expandSandbox(options.state ?? sandbox.dir, sandbox.dir))
    const state = await nameState(statePath, sandbox.keepDir)
    const words = vocabulary(sandbox.dir)
    const probe = await startServer(server, settings.startTimeoutMs)
    let target: McpTarget
    try {
      const observers = await chooseObservers(probe, words, settings.callTimeoutMs, settings.observerGapMs)
      target = { server, state, tools: probe.tools, observers, words, settings }
    } finally {
      await probe.close()
    }
    const servers = new Servers(target)
    try {
      const here = replay ? { ...replay, case: showSandbox(replay.case, sandbox.dir) } : undefined
      return hideSandbox(await checkTarget(target, servers, options, settings, here), sandbox.dir)
    } finally {
      await servers.dispose()
      await state.restore() // a state named outside the sandbox is left as it was found
    }
  } finally {
    await sandbox.dispose()
  }
}

async function checkTarget(
  target: McpTarget,
  servers: Servers,
  options: McpServerOptions,
  settings: ClaimSettings,
  replay?: McpReplay,
): Promise<McpClaimsResult> {
  const errors: string[] = []
  const unknownTools = [...(options.tools ?? []), ...(replay && replay.tool !== READ_ONLY_TOOLS ? [replay.tool] : [])]
    .filter((name) => !target.tools.some((t) => t.name === name))
  if (unknownTools.length > 0) throw new ServerError(`the server lists no tool named ${unknownTools.map((n) => `"${n}"`).join(', ')}`)
  const check = async (id: McpClaimId, tool: McpTool | undefined): Promise<ClaimVerdict> => {
    const notApplicable = applicability(id, tool, target)
    if (notApplicable) return { id, status: notApplicable.status, numRuns: 0, reason: notApplicable.reason }
    try {
      return await runClaim(mcpClaimRun(id, target, servers, tool, replay), settings)
    } catch (error) {
      if (!(error instanceof ServerError)) throw error
      errors.push(`${id}${tool ? ` ${tool.name}` : ''}: ${error.message}`)
      return { id, status: 'unknown', numRuns: 0, reason: `the server failed: ${error.message}` }
    }
  }
  const tools: McpToolVerdicts[] = []
  const selected = target.tools.filter((t) => (replay ? t.name === replay.tool : !options.tools || options.tools.includes(t.name)))
  for (const tool of selected) {
    const verdicts: ClaimVerdict[] = []
    for (const id of ['CLM-5', 'CLM-7', 'CLM-8'] as const) if (!replay || replay.clause === id) verdicts.push(await check(id, tool))
    tools.push({ name: tool.name, hints: tool.hints, verdicts })
  }
  if (!replay || replay.clause === 'CLM-6') tools.push({ name: READ_ONLY_TOOLS, hints: { readOnlyHint: true }, verdicts: [await check('CLM-6', undefined)] })
  return { tools, notes: notesFor(target), errors, serversStarted: servers.started + 1 }
}

function applicability(id: McpClaimId, tool: McpTool | undefined, target: McpTarget): { status: 'not-applicable'; reason: string } | undefined {
  const hints = tool?.hints ?? {}
  switch (id) {
    case 'CLM-5':
      return hints.readOnlyHint === true ? undefined : { status: 'not-applicable', reason: 'not annotated readOnlyHint: true' }
    case 'CLM-6':
      if (comparableReadOnly(target).length > 0) return undefined
      return { status: 'not-applicable', reason: 'no tool is annotated readOnlyHint: true and answers the same twice in a row' }
    case 'CLM-7':
      if (hints.readOnlyHint === true) return { status: 'not-applicable', reason: 'read-only (CLM-5 says more)' }
      return hints.idempotentHint === true ? undefined : { status: 'not-applicable', reason: 'not annotated idempotentHint: true' }
    case 'CLM-8':
      if (hints.readOnlyHint === true) return { status: 'not-applicable', reason: 'read-only (CLM-5 says more)' }
      return hints.destructiveHint === false ? undefined : { status: 'not-applicable', reason: 'not annotated destructiveHint: false' }
  }
}

function notesFor(target: McpTarget): string[] {
  const notes = [
    `observed: the named state ${target.state?.path ?? '(none)'}, ${target.observers.calls.length} read-only tools as observers` +
      '; CLM-8 judges the named state and the resources only',
  ]
  if (target.observers.left.length > 0) notes.push(`read-only tools not used as observers: ${target.observers.left.join(', ')}`)
  const { unstable } = target.observers
  if (unstable.length > 0) notes.push(`CLM-6 does not call ${unstable.join(', ')}: their answers differ from one call to the next`)
  if (target.settings.reuseServer) notes.push('--reuse-server: one server process served every trial, its named state put back before each')
  return notes
}
