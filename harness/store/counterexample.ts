/**
 * Counterexample files: a failure as data (the clause, the shrunk case, its schedule, the seed
 * and path, violations and trace), written as JSON and read back for `toolreg replay`. Reading
 * validates the file with ajv and names the first invalid field.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { writeAtomically } from '../report/write-file.js'
import { documentValidator, firstSchemaError } from '../json-schema.js'
import { SCENARIO_SCHEMA } from '../scenario/scenario-schema.js'
import type { Failure } from '../property/failure.js'
import { jsonSafe } from '../safe/json-safe.js'


/**
 * What a counterexample was found on, so that `replay` re-runs it there: an adapter module (in a
 * file, relative to the file's own folder), a protocol server's command line, or neither (the
 * bundled reference).
 */
export interface ReplayTarget {
  adapter?: string
  command?: string
}

export interface CounterexampleFile {
  toolreg: 'counterexample'
  version: 1
  clause: string
  property: string
  /** The adapter's name: `replay` refuses to run the case on an adapter of another name. */
  adapter: string
  target?: ReplayTarget
  seed: number
  path: string
  /** The shrunk case: a scenario for judged properties, the property's own JSON otherwise. */
  case: unknown
  /** The shrunk case told by its property (`ConformanceProperty.story`), for reports made where no suite is loaded. */
  story?: string[]
  schedule: number[]
  violations: Failure['violations']
  trace?: unknown
  /** Generated cases before the first failure. */
  numRuns?: number
  /** The case first found, before shrinking (shrinking kept its check). */
  original?: { case: unknown; schedule: number[]; violations: Failure['violations']; check: string }
}

export const ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['toolreg', 'version', 'clause', 'property', 'seed', 'path', 'case', 'schedule', 'violations'],
  properties: {
    toolreg: { const: 'counterexample' },
    version: { const: 1 },
    clause: { type: 'string', pattern: '^[A-Z]{2,4}-[0-9]+$' },
    property: { type: 'string' },
    adapter: { type: 'string' },
    target: {
      type: 'object',
      additionalProperties: false,
      properties: { adapter: { type: 'string', minLength: 1 }, command: { type: 'string', minLength: 1 } },
    },
    seed: { type: 'integer' },
    path: { type: 'string' },
    schedule: { type: 'array', items: { type: 'integer', minimum: 1 } },
    violations: { type: 'array' },
    story: { type: 'array', items: { type: 'string' } },
  },
}

// Compiled on first read: compiling the scenario schema costs a third of a second, which every
// certify process would otherwise pay at start-up for a validator only `replay` uses.
let validators: { envelope: ReturnType<typeof documentValidator>; scenario: ReturnType<typeof documentValidator> } | undefined
const compiled = () => (validators ??= { envelope: documentValidator(ENVELOPE_SCHEMA), scenario: documentValidator(SCENARIO_SCHEMA) })

export function toFile(clause: string, property: string, adapter: string, failure: Failure, story?: string[]): CounterexampleFile {
  return {
    toolreg: 'counterexample',
    version: 1,
    clause,
    property,
    adapter,
    seed: failure.seed,
    path: failure.path,
    case: failure.testCase,
    ...(story ? { story } : {}),
    schedule: failure.schedule,
    violations: jsonSafe(failure.violations) as Failure['violations'],
    numRuns: failure.numRuns,
    original: { case: failure.original.testCase, schedule: failure.original.schedule, violations: failure.original.violations, check: failure.check },
    ...(failure.trace ? { trace: jsonSafe(failure.trace) } : {}),
  }
}

/** Writes the file under `dir`, recording `target` (an adapter module's absolute path, or a command) for `replay`. */
export async function writeCounterexample(dir: string, file: CounterexampleFile, target?: RunTarget): Promise<string> {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_')
  const path = join(dir, safe(file.adapter), `${file.clause}-seed${file.seed}.json`)
  return writeAtomically(path, `${JSON.stringify(withTarget(file, path, target), null, 2)}\n`)
}

/** The run's implementation, as resolved: an adapter module's absolute path or a server command. */
export interface RunTarget {
  adapterPath?: string | undefined
  command?: string | undefined
}

/** The file with its replay target, an adapter path made relative to the file's folder. */
export function withTarget(file: CounterexampleFile, path: string, target: RunTarget | undefined): CounterexampleFile {
  if (!target) return file
  const recorded: ReplayTarget = target.command
    ? { command: target.command }
    : target.adapterPath ? { adapter: relative(dirname(path), target.adapterPath).split(sep).join('/') } : {}
  return { ...file, target: recorded }
}

export class InvalidCounterexample extends Error {}

/** Reads and validates a counterexample file; `isScenario` says whether its case must be a scenario. */
export async function readCounterexample(file: string, isScenario: (clause: string, testCase: unknown) => boolean): Promise<CounterexampleFile> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new InvalidCounterexample(`${file}: not a JSON file (${error instanceof Error ? error.message : String(error)})`)
  }
  const version = (parsed as { version?: unknown } | null)?.version
  if (typeof version === 'number' && version !== 1) {
    throw new InvalidCounterexample(`${file}: counterexample format version ${version}; this toolreg reads version 1`)
  }
  const { envelope, scenario } = compiled()
  if (!envelope(parsed)) throw new InvalidCounterexample(`${file}: ${firstSchemaError(envelope.errors)}`)
  const ce = parsed as unknown as CounterexampleFile
  if (isScenario(ce.clause, ce.case) && !scenario(ce.case)) throw new InvalidCounterexample(`${file}: case${firstSchemaError(scenario.errors)}`)
  return ce
}
