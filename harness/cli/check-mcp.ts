/**
 * `toolreg check-mcp [options] -- <server command…>`: starts a stdio MCP server with the SDK
 * client and checks the claims its tools' annotations make (CLM-5..8 of SPEC.md), a verdict per
 * tool and claim. Exit 0 when no claim is refuted, 1 when one is, 2 when the server (or a replayed
 * case file, or the command line) is unusable.
 */
import { parseArgs } from 'node:util'
import { relative, resolve } from 'node:path'
import { InvalidClaimCase, readClaimCase, writeClaimCase } from '../claims/case-file.js'
import { checkServer, type McpClaimsResult, type McpReplay } from '../claims/mcp/check-server.js'
import { CLOCK_TICK_MS } from '../claims/mcp/observation.js'
import { ServerError } from '../claims/mcp/server-session.js'
import { buildMcpReport, mcpExitCode } from '../claims/report/build-mcp-report.js'
import { formatMcpText } from '../claims/report/format-mcp.js'
import { writeCheckMcpReports } from '../claims/report/write-mcp-reports.js'
import type { CheckToolReportTargets } from '../claims/report/write-reports.js'
import { DEFAULT_GRACE_MS, DEFAULT_TRIAL_TIMEOUT_MS } from '../claims/settings.js'
import { MCP_CLAIM_IDS, type McpClaimId } from '../claims/types.js'
import { defaultSeed } from '../engine/resolve-run.js'
import { writableTarget } from '../report/write-file.js'
import { UsageError } from './usage.js'
import { TOOLREG_VERSION } from './version.js'

export interface CheckMcpOptions extends CheckToolReportTargets {
  /** The server's command line; `{sandbox}` stands for the run's fresh temporary directory. */
  command: string[]
  /** A file or directory holding the server's state (default: the sandbox). */
  state?: string
  /** The server keeps no state but the named state: one process serves every trial. */
  reuseServer?: boolean
  /** Check only these tools. */
  tools?: string[]
  runs?: number
  seed?: number
  /** Wall-clock budget per claim in ms (default 30 000); a claim that exhausts it is `unknown`. */
  timeLimitMs?: number
  /** How long one call may take before its trial is skipped (default 2 000 ms). */
  callTimeoutMs?: number
  replay?: string
  /** Where the cases of refuted claims are saved (default reports/counterexamples/mcp). */
  counterexampleDir?: string
  /** How far apart the two observations that choose the observers are (default just over a second, to catch clocks). */
  observerGapMs?: number
}

export const DEFAULT_MCP_RUNS = 20
const DEFAULT_MCP_TIME_LIMIT_MS = 30_000
const DEFAULT_CALL_TIMEOUT_MS = 2_000
const START_TIMEOUT_MS = 15_000

export async function checkMcp(options: CheckMcpOptions): Promise<number> {
  const started = Date.now()
  const seed = options.seed ?? defaultSeed()
  const settings = {
    seed,
    runs: options.runs ?? DEFAULT_MCP_RUNS,
    timeLimitMs: options.timeLimitMs ?? DEFAULT_MCP_TIME_LIMIT_MS,
    graceMs: DEFAULT_GRACE_MS,
    trialTimeoutMs: DEFAULT_TRIAL_TIMEOUT_MS,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    startTimeoutMs: START_TIMEOUT_MS,
    reuseServer: options.reuseServer === true,
    observerGapMs: options.observerGapMs ?? CLOCK_TICK_MS,
  }
  try {
    const replay = options.replay ? await savedCase(options.replay) : undefined
    const server = { command: options.command, ...(options.state ? { state: options.state } : {}), ...(options.tools ? { tools: options.tools } : {}) }
    const result = await checkServer(server, replay ? { ...settings, seed: replay.seed } : settings, replay)
    if (!replay) await saveRefutingCases(result, resolve(options.counterexampleDir ?? 'reports/counterexamples/mcp'))
    const report = buildMcpReport({
      result,
      command: options.command,
      ...(options.state ? { state: options.state } : {}),
      reuseServer: settings.reuseServer,
      seed: replay?.seed ?? seed,
      runs: settings.runs,
      durationMs: Date.now() - started,
      version: TOOLREG_VERSION,
      ...(options.replay ? { replay: options.replay } : {}),
    })
    console.log(formatMcpText(report))
    await writeCheckMcpReports(report, options)
    return mcpExitCode(report)
  } catch (error) {
    if (error instanceof ServerError || error instanceof InvalidClaimCase) {
      console.error(`toolreg: ${error.message}`)
      return 2
    }
    throw error
  }
}

async function savedCase(file: string): Promise<McpReplay & { seed: number }> {
  const saved = await readClaimCase(file)
  if (!(MCP_CLAIM_IDS as readonly string[]).includes(saved.clause)) {
    throw new InvalidClaimCase(`${file} is a case of ${saved.clause}, a claim check-tool checks`)
  }
  return { clause: saved.clause as McpClaimId, tool: saved.tool, case: saved.case, seed: saved.seed }
}

async function saveRefutingCases(result: McpClaimsResult, dir: string): Promise<void> {
  for (const tool of result.tools) {
    for (const verdict of tool.verdicts) {
      if (verdict.status !== 'refuted' || !verdict.counterexample) continue
      const file = await writeClaimCase(dir, tool.name, verdict)
      verdict.counterexample.file = relative(process.cwd(), file) || file
    }
  }
}

/** The command line of `toolreg check-mcp`: options, then `--` and the server's command. */
export async function checkMcpCommand(argv: string[]): Promise<number> {
  const dashes = argv.indexOf('--')
  const command = dashes < 0 ? [] : argv.slice(dashes + 1)
  const { values, positionals } = parseArgs({
    args: dashes < 0 ? argv : argv.slice(0, dashes),
    allowPositionals: true,
    strict: true,
    options: {
      state: { type: 'string' },
      'reuse-server': { type: 'boolean' },
      tool: { type: 'string', multiple: true },
      runs: { type: 'string' },
      seed: { type: 'string' },
      'time-limit': { type: 'string' },
      'call-timeout': { type: 'string' },
      replay: { type: 'string' },
      json: { type: 'string' },
      junit: { type: 'string' },
      markdown: { type: 'string' },
    },
  })
  if (positionals.length > 0) throw new UsageError(`check-mcp takes the server command after --, got "${positionals.join(' ')}"`)
  if (command.length === 0) throw new UsageError('check-mcp needs a server command: toolreg check-mcp [options] -- <command> [args…]')
  const targets: CheckToolReportTargets = {}
  for (const key of ['json', 'junit', 'markdown'] as const) if (values[key]) targets[key] = values[key]
  for (const file of Object.values(targets)) await writableTarget(file)
  return checkMcp({
    command,
    ...(values.state ? { state: values.state } : {}),
    ...(values['reuse-server'] ? { reuseServer: true } : {}),
    ...(values.tool ? { tools: values.tool } : {}),
    ...(values.runs !== undefined ? { runs: count('--runs', values.runs) } : {}),
    ...(values.seed !== undefined ? { seed: whole('--seed', values.seed) } : {}),
    ...(values['time-limit'] !== undefined ? { timeLimitMs: milliseconds('--time-limit', values['time-limit']) } : {}),
    ...(values['call-timeout'] !== undefined ? { callTimeoutMs: milliseconds('--call-timeout', values['call-timeout']) } : {}),
    ...(values.replay ? { replay: values.replay } : {}),
    ...targets,
  })
}

/** "500ms", "2s", "1m" or plain seconds. */
function milliseconds(flag: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw)
  const ms = match ? Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm'] : NaN
  if (!(ms > 0)) throw new UsageError(`${flag} needs a time above zero like 500ms, 2s or 1m, got "${raw}"`)
  return ms
}

function count(flag: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} needs a positive integer, got "${raw}"`)
  return n
}

function whole(flag: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n)) throw new UsageError(`${flag} needs an integer, got "${raw}"`)
  return n
}
