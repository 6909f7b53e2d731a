/**
 * The claims checker: the loaded tool's four claims, each as its own fast-check run (or one saved
 * case, replayed), and what the report says about the tool besides: what it declares, and what
 * limits the checks.
 */
import fc from 'fast-check'
import type { JsonValue, ToolDefinition } from '../contract/spec.js'
import { argumentsFor, type ArgumentsGenerator } from './arguments.js'
import { claimRun, type SavedCase } from './claim-runs.js'
import { withFewerCalls } from './fewer-calls.js'
import { describeThrown } from '../safe/safe-read.js'
import { ToolModuleError } from './load-tool.js'
import { frozenJson } from './recording-proxy.js'
import { runClaim } from './run-claim.js'
import { compileSchema } from './schema-validator.js'
import type { ClaimSettings } from './settings.js'
import { IMMEDIATE_HARNESS, withTrial } from './trial.js'
import { CLAIM_IDS, type ClaimId, type ClaimVerdict, type LoadedTool } from './types.js'
import { EnvironmentError } from './violation.js'

export interface ToolDeclarations {
  classifier: boolean
  /** Whether the classifier answered exactly `true` for some generated arguments. */
  claimsParallelSafety: boolean
  timeoutMs?: number
  setup: boolean
  observe: boolean
}

export interface ClaimsResult {
  tool: { name: string; source: string; declares: ToolDeclarations }
  verdicts: ClaimVerdict[]
  /** What limits the checks: keywords not generated, no observe()… */
  notes: string[]
  /** The module's own lifecycle failing mid-run: a bad module. */
  errors: string[]
}

const SAFETY_SAMPLE = 100

export async function checkClaims(tool: LoadedTool, settings: ClaimSettings, only: readonly ClaimId[] = CLAIM_IDS): Promise<ClaimsResult> {
  return run(tool, settings, only)
}

/** Re-runs one saved counterexample of `clause`: refuted while the tool still breaks it. */
export async function replayClaim(tool: LoadedTool, clause: ClaimId, saved: SavedCase, settings: ClaimSettings): Promise<ClaimsResult> {
  return run(tool, settings, [clause], saved)
}

async function run(tool: LoadedTool, settings: ClaimSettings, only: readonly ClaimId[], saved?: SavedCase): Promise<ClaimsResult> {
  const def = tool.definition
  const args = argumentsFor(def.name, def.parameters)
  try {
    compileSchema(def.output.schema)
  } catch (error) {
    throw new ToolModuleError(`tool "${def.name}": "output.schema" is not a JSON Schema ajv can compile (${describeThrown(error)})`)
  }
  const declares: ToolDeclarations = {
    classifier: typeof def.isConcurrencySafe === 'function',
    claimsParallelSafety: await claimsParallelSafety(tool, args, settings.seed),
    ...(def.timeoutMs !== undefined ? { timeoutMs: def.timeoutMs } : {}),
    setup: tool.hasSetup,
    observe: tool.observe !== undefined,
  }
  const verdicts: ClaimVerdict[] = []
  const errors: string[] = []
  for (const id of CLAIM_IDS.filter((c) => only.includes(c))) {
    const notApplicable = applicability(id, declares)
    if (notApplicable) {
      verdicts.push({ id, status: 'not-applicable', numRuns: 0, reason: notApplicable })
      continue
    }
    try {
      const verdict = await runClaim(claimRun(id, tool, args, settings, saved), settings)
      verdicts.push(id === 'CLM-2' && verdict.status === 'refuted' && !saved ? await withFewerCalls(verdict, tool, args, settings) : verdict)
    } catch (error) {
      if (!(error instanceof EnvironmentError)) throw error
      errors.push(`${id}: ${error.message}`)
      verdicts.push({ id, status: 'unknown', numRuns: 0, reason: `the tool module failed: ${error.message}` })
    }
  }
  return { tool: { name: def.name, source: tool.source, declares }, verdicts, notes: notesFor(args, declares), errors }
}

function applicability(id: ClaimId, declares: ToolDeclarations): string | undefined {
  if (id === 'CLM-1' || id === 'CLM-2') {
    if (!declares.classifier) return 'the tool has no isConcurrencySafe classifier: it never runs in parallel'
    if (!declares.claimsParallelSafety) return `the classifier answered exactly true for none of ${SAFETY_SAMPLE} generated arguments`
  }
  if (id === 'CLM-3' && declares.timeoutMs === undefined) return 'the tool declares no timeoutMs'
  return undefined
}

/** Whether the classifier says `true` for any of a fixed sample of arguments (CLM-1 and CLM-2 apply only then). */
async function claimsParallelSafety(tool: LoadedTool, args: ArgumentsGenerator, seed: number): Promise<boolean> {
  const sample = [...args.edges, ...fc.sample(args.arbitrary, { seed, numRuns: SAFETY_SAMPLE })].filter(args.isValid)
  return withTrial(tool, IMMEDIATE_HARNESS, async ({ def }) => sample.some((input) => safeFor(def, input)))
}

function safeFor(def: ToolDefinition, input: JsonValue): boolean {
  try {
    return def.isConcurrencySafe?.(frozenJson(input)) === true
  } catch {
    return false
  }
}

function notesFor(args: ArgumentsGenerator, declares: ToolDeclarations): string[] {
  const notes: string[] = []
  if (args.ignored.length > 0) notes.push(
    `parameters keywords not used to generate arguments (ajv still enforces them, so cases may be skipped): ${args.ignored.join(', ')}`,
  )
  if (!declares.observe) notes.push('the module exports no observe(): shared state is not compared (CLM-2, CLM-3) and side effects are not seen (CLM-4)')
  if (!declares.setup) notes.push(
    "the module exports no setup(): every trial shares the module's own state, and only the calls' starts are interleaved (CLM-2)",
  )
  return notes
}
