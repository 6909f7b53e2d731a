// `toolreg check-tool`: every honest fixture tool passes, every lying one is refuted on exactly
// the CLM clauses it names (and its saved case replays), a claim out of budget is unknown, and
// a bad module exits 2.
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { schemaArbitrary } from '../harness/arbitraries/schema-arbitrary.js'
import { compileSchema } from '../harness/claims/schema-validator.js'
import type { CheckToolReport } from '../harness/claims/report/build-report.js'
import { assertValidCheckToolReport } from '../harness/claims/report/validate-report.js'
import { checkTool, type CheckToolOptions } from '../harness/cli/check-tool.js'
import { formatText } from '../harness/claims/report/format-text.js'

const RUNS = 25
const SEED = 7
const fixtures = (kind: 'honest' | 'lying') =>
  readdirSync(`fixtures/tools/${kind}`)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `fixtures/tools/${kind}/${f}`)

let dir: string
let count = 0
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolreg-check-tool-'))
})
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
// Files share a worker's modules (vitest.config.ts): the spies must not outlive this file's tests.
afterEach(() => vi.restoreAllMocks())

/** Runs check-tool with a JSON report; returns the exit code and the report (when one was written). */
async function run(options: Omit<CheckToolOptions, 'json' | 'counterexampleDir'>): Promise<{ code: number; report?: CheckToolReport }> {
  const json = join(dir, `report-${++count}.json`)
  const code = await checkTool({ runs: RUNS, seed: SEED, counterexampleDir: join(dir, 'cases'), json, ...options })
  return existsSync(json) ? { code, report: JSON.parse(await readFile(json, 'utf8')) as CheckToolReport } : { code }
}

const withStatus = (report: CheckToolReport | undefined, status: string) => (report?.claims ?? []).filter((c) => c.status === status).map((c) => c.id)

describe('honest tools: no claim refuted, exit 0', () => {
  it.each(fixtures('honest'))('%s', async (module) => {
    const { code, report } = await run({ module })
    // A claim refuted by an honest tool is the harness's fault: the verdict says which, and why.
    const refuted = (report?.claims ?? []).filter((c) => c.status === 'refuted' || c.status === 'unknown')
    expect(code, JSON.stringify(refuted).slice(0, 2000)).toBe(0)
    expect(withStatus(report, 'refuted')).toEqual([])
    expect(withStatus(report, 'unknown')).toEqual([])
    expect(withStatus(report, 'not-refuted')).toContain('CLM-4')
  })
})

describe('lying tools: refuted on exactly the claims they break, exit 1, and the saved case replays', () => {
  it.each(fixtures('lying'))('%s', async (module) => {
    const { refutes } = (await import(pathToFileURL(resolve(module)).href)) as { refutes: string[] }
    const { code, report } = await run({ module })
    expect(code).toBe(1)
    expect(withStatus(report, 'refuted')).toEqual(refutes)
    for (const claim of report!.claims.filter((c) => c.status === 'refuted')) {
      const ce = claim.counterexample!
      expect(ce.violations.length).toBeGreaterThan(0)
      if (claim.id === 'CLM-1') expect(ce.violations.every((v) => v.path?.startsWith('arguments'))).toBe(true)
      if (claim.id === 'CLM-2') {
        expect((ce.case as { calls: unknown[] }).calls).toHaveLength(2)
        expect(ce.interleaving?.length).toBe(ce.schedule?.length)
      }
      // The printed replay line is the command that re-runs the case on this module.
      expect(formatText(report!)).toContain(`replay: npx toolreg check-tool ${module} --replay ${ce.file!}`)
      const replayed = await run({ module, replay: ce.file! })
      expect(replayed.code).toBe(1)
      expect(replayed.report!.claims.map((c) => [c.id, c.status])).toEqual([[claim.id, 'refuted']])
    }
  })

  it('CLM-2 a racy counter\'s refuting interleaving, replayed on the atomic counter, is not refuted (exit 0)', async () => {
    const { report } = await run({ module: 'fixtures/tools/lying/racy-counter.ts' })
    const file = report!.claims.find((c) => c.id === 'CLM-2')!.counterexample!.file!
    const fixed = await run({ module: 'fixtures/tools/honest/atomic-counter.ts', replay: file })
    expect(fixed.code).toBe(0)
    expect(fixed.report!.claims.map((c) => [c.id, c.status])).toEqual([['CLM-2', 'not-refuted']])
  })
})

describe('stress mode: CLM-2 under real timers', () => {
  it.each([
    ['fixtures/tools/lying/racy-counter.ts', 'refuted'],
    ['fixtures/tools/lying/file-counter.ts', 'refuted'],
    ['fixtures/tools/honest/atomic-counter.ts', 'not-refuted'],
  ])('CLM-2 %s is %s', async (module, status) => {
    const { report } = await run({ module, stress: true })
    expect(report!.claims.find((c) => c.id === 'CLM-2')?.status).toBe(status)
  })
})

describe('reports', () => {
  it('JSON (valid against its schema), JUnit and Markdown come from one run', async () => {
    const out = (name: string) => join(dir, `formats-${name}`)
    const code = await checkTool({
      module: 'fixtures/tools/lying/shared-log-appender.ts',
      runs: RUNS,
      seed: SEED,
      counterexampleDir: join(dir, 'cases'),
      json: out('r.json'),
      junit: out('r.xml'),
      markdown: out('r.md'),
    })
    expect(code).toBe(1)
    const report = JSON.parse(await readFile(out('r.json'), 'utf8')) as unknown
    expect(() => assertValidCheckToolReport(report)).not.toThrow()
    expect(await readFile(out('r.xml'), 'utf8')).toMatch(/<testsuites [^>]*tests="4" failures="1"/)
    expect(await readFile(out('r.md'), 'utf8')).toMatch(/\| CLM-2 \| REFUTED \|/)
  })

  it('a claim that exhausts its time budget is unknown, not passed, and does not fail the run', async () => {
    const { code, report } = await run({ module: 'fixtures/tools/honest/file-reader.ts', timeLimitMs: 1 })
    expect(code).toBe(0)
    expect(withStatus(report, 'unknown')).toContain('CLM-2')
    expect(withStatus(report, 'refuted')).toEqual([])
  })
})

describe('bad modules and case files exit 2 without a report', () => {
  it.each([
    ['a missing module', { module: 'fixtures/tools/nope.ts' }],
    ['a missing named export', { module: 'fixtures/tools/honest/pure-lookup.ts', exportName: 'nope' }],
    ['a definition without output', { module: 'fixtures/tools/broken/no-output.ts' }],
    ['a setup() that throws', { module: 'fixtures/tools/broken/setup-throws.ts' }],
    ['a replay file that is not a case', { module: 'fixtures/tools/honest/pure-lookup.ts', replay: 'package.json' }],
  ])('%s', async (_label, options: Omit<CheckToolOptions, 'json' | 'counterexampleDir'>) => {
    const { code, report } = await run(options)
    expect(code).toBe(2)
    expect(report).toBeUndefined()
  })

  it('a replay file of another tool', async () => {
    const file = join(dir, 'other-tool.json')
    await writeFile(file, JSON.stringify(
      { toolreg: 'claim-case', version: 1, clause: 'CLM-4', tool: 'someone_else', seed: 1, path: '0', case: { arguments: {} }, violations: [] },
    ))
    expect((await run({ module: 'fixtures/tools/honest/pure-lookup.ts', replay: file })).code).toBe(2)
  })
})

describe('arguments from parameters', () => {
  const schemas = [
    { type: 'object', properties: { by: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['by'] },
    {
      type: 'object',
      properties: {
        path: { enum: ['a', 'b'] },
        n: { type: 'number', exclusiveMinimum: 0 },
        tags: { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 1, uniqueItems: true },
      },
      required: ['path'],
    },
    {
      type: 'object',
      properties: {
        target: { oneOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] },
        mode: { const: 'fast' },
        pair: { type: 'array', prefixItems: [{ type: 'boolean' }, { type: 'integer' }] },
      },
    },
    {
      type: 'object',
      properties: { node: { $ref: '#/$defs/node' } },
      required: ['node'],
      $defs: { node: { type: 'object', properties: { id: { type: ['string', 'integer'] } }, required: ['id'] } },
    },
  ]
  it.each(schemas.map((s) => [JSON.stringify(s).slice(0, 60), s]))('every generated value validates: %s', (_label, schema) => {
    const check = compileSchema(schema)
    fc.assert(fc.property(schemaArbitrary(schema), (value) => check(value) === undefined), { seed: SEED, numRuns: 200 })
  })

  it('shrinks to the sparsest valid value', () => {
    const schema = schemas[1]!
    const failure = fc.check(fc.property(schemaArbitrary(schema), () => false), { seed: SEED })
    expect(failure.counterexample).toEqual([{ path: 'a' }])
  })
})
