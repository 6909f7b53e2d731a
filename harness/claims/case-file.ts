/**
 * Saved counterexamples of claims (check-tool's and check-mcp's): one JSON file per refuted
 * claim, holding the shrunk case and, for CLM-2, the scheduler's release order, so a replay
 * re-runs exactly that trial. Reading validates the file with ajv and names the first invalid field.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { documentValidator } from '../json-schema.js'
import { writeAtomically } from '../report/write-file.js'
import type { JsonValue } from '../contract/spec.js'
import { CLAIM_IDS, MCP_CLAIM_IDS, type AnyClaimId, type ClaimVerdict, type Violation } from './types.js'


export interface ClaimCaseFile {
  toolreg: 'claim-case'
  version: 1
  clause: AnyClaimId
  tool: string
  seed: number
  path: string
  case: JsonValue
  schedule?: number[]
  interleaving?: string[]
  violations: Violation[]
}

export const CASE_FILE_SCHEMA = {
  type: 'object',
  required: ['toolreg', 'version', 'clause', 'tool', 'seed', 'path', 'case', 'violations'],
  properties: {
    toolreg: { const: 'claim-case' },
    version: { const: 1 },
    clause: { enum: [...CLAIM_IDS, ...MCP_CLAIM_IDS] },
    tool: { type: 'string' },
    seed: { type: 'integer' },
    path: { type: 'string' },
    case: { type: 'object' },
    schedule: { type: 'array', items: { type: 'integer', minimum: 1 } },
    interleaving: { type: 'array', items: { type: 'string' } },
    violations: { type: 'array' },
  },
}
const validate = documentValidator(CASE_FILE_SCHEMA)

export class InvalidClaimCase extends Error {}

/** Writes the verdict's counterexample under `dir/<tool>/<clause>-seed<seed>.json`; returns the path. */
export async function writeClaimCase(dir: string, tool: string, verdict: ClaimVerdict): Promise<string> {
  const ce = verdict.counterexample!
  const file: ClaimCaseFile = {
    toolreg: 'claim-case',
    version: 1,
    clause: verdict.id,
    tool,
    seed: ce.seed,
    path: ce.path,
    case: ce.case,
    ...(ce.schedule ? { schedule: ce.schedule } : {}),
    ...(ce.interleaving ? { interleaving: ce.interleaving } : {}),
    violations: ce.violations,
  }
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_')
  return writeAtomically(join(dir, safe(tool), `${verdict.id}-seed${ce.seed}.json`), `${JSON.stringify(file, null, 2)}\n`)
}

export async function readClaimCase(file: string): Promise<ClaimCaseFile> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new InvalidClaimCase(`${file}: not a readable JSON file (${error instanceof Error ? error.message : String(error)})`)
  }
  if (!validate(parsed)) {
    const e = validate.errors?.[0]
    throw new InvalidClaimCase(`${file}: ${e?.instancePath || '(root)'} ${e?.message ?? 'is invalid'}`)
  }
  return parsed as unknown as ClaimCaseFile
}
