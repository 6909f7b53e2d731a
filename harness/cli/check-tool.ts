/**
 * `toolreg check-tool`: checks the claims a tool makes (CLM-1..CLM-4 of SPEC.md) by calling its
 * definition directly with generated arguments, and reports a verdict per claim. Exit 0 when no
 * claim is refuted, 1 when one is, 2 when the module (or a replayed case file) is unusable.
 */
import { relative, resolve } from 'node:path'
import { readClaimCase, InvalidClaimCase, writeClaimCase } from '../claims/case-file.js'
import { checkClaims, replayClaim, type ClaimsResult } from '../claims/check-claims.js'
import { loadTool, ToolModuleError } from '../claims/load-tool.js'
import { buildReport, exitCode } from '../claims/report/build-report.js'
import { formatText } from '../claims/report/format-text.js'
import { writeCheckToolReports, type CheckToolReportTargets } from '../claims/report/write-reports.js'
import { DEFAULT_GRACE_MS, DEFAULT_RUNS, DEFAULT_TIME_LIMIT_MS, DEFAULT_TRIAL_TIMEOUT_MS, type ClaimSettings } from '../claims/settings.js'
import { CLAIM_IDS, type AnyClaimId, type ClaimId } from '../claims/types.js'
import { TOOLREG_VERSION } from './version.js'
import { defaultSeed } from '../engine/resolve-run.js'

export interface CheckToolOptions extends CheckToolReportTargets {
  /** The tool module: its default export (or `exportName`) is a ToolDefinition or a factory `(env) => ToolDefinition`. */
  module: string
  exportName?: string
  /** Generated cases per claim (default 100). */
  runs?: number
  /** Seed for generation (default random, always printed). */
  seed?: number
  /** Re-run one saved case file of a refuted claim instead of generating: exit 1 while it still refutes, 0 once fixed. */
  replay?: string
  /** Where the cases of refuted claims are saved (default reports/counterexamples/tools). */
  counterexampleDir?: string
  /** Wall-clock budget per claim in ms (default 60 000); a claim that exhausts it is `unknown`. */
  timeLimitMs?: number
  /** CLM-2 under real timers with random delays, so uninstrumented awaits (I/O) interleave too. */
  stress?: boolean
}

export async function checkTool(options: CheckToolOptions): Promise<number> {
  const started = Date.now()
  const settings: ClaimSettings = {
    seed: options.seed ?? defaultSeed(),
    runs: options.runs ?? DEFAULT_RUNS,
    timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    graceMs: DEFAULT_GRACE_MS,
    trialTimeoutMs: DEFAULT_TRIAL_TIMEOUT_MS,
    ...(options.stress ? { stress: true } : {}),
  }
  try {
    if (!Number.isInteger(settings.runs) || settings.runs < 1) throw new ToolModuleError(`runs must be a positive integer, got ${settings.runs}`)
    const tool = await loadTool(options.module, options.exportName)
    let result: ClaimsResult
    if (options.replay) {
      const saved = await readClaimCase(options.replay)
      const clause = saved.clause
      if (!isToolClaim(clause)) throw new InvalidClaimCase(`${options.replay} is a case of ${clause}, a claim check-mcp checks`)
      if (saved.tool !== tool.definition.name) throw new InvalidClaimCase(
        `${options.replay} is a case of tool "${saved.tool}", but ${tool.source} defines "${tool.definition.name}"`,
      )
      result = await replayClaim(tool, clause, saved, { ...settings, seed: saved.seed })
    } else {
      result = await checkClaims(tool, settings)
      await saveRefutingCases(result, resolve(options.counterexampleDir ?? 'reports/counterexamples/tools'))
    }
    const report = buildReport({
      result,
      module: options.module,
      ...(options.exportName ? { exportName: options.exportName } : {}),
      seed: options.replay ? (result.verdicts[0]?.counterexample?.seed ?? settings.seed) : settings.seed,
      runs: options.replay ? Math.max(1, result.verdicts[0]?.numRuns ?? 1) : settings.runs,
      durationMs: Date.now() - started,
      version: TOOLREG_VERSION,
      ...(options.replay ? { replay: options.replay } : {}),
    })
    console.log(formatText(report))
    await writeCheckToolReports(report, options)
    return exitCode(report)
  } catch (error) {
    if (error instanceof ToolModuleError || error instanceof InvalidClaimCase) {
      console.error(`toolreg: ${error.message}`)
      return 2
    }
    throw error
  }
}

const isToolClaim = (id: AnyClaimId): id is ClaimId => (CLAIM_IDS as readonly string[]).includes(id)

async function saveRefutingCases(result: ClaimsResult, dir: string): Promise<void> {
  for (const verdict of result.verdicts) {
    if (verdict.status !== 'refuted' || !verdict.counterexample) continue
    const file = await writeClaimCase(dir, result.tool.name, verdict)
    verdict.counterexample.file = relative(process.cwd(), file) || file
  }
}
