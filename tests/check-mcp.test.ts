// `toolreg check-mcp`: the honest fixture server has no claim refuted, each lying one is refuted on
// exactly the claim it breaks (CLM-5..8), its saved case replays (and is not refuted on the honest
// server), and an unusable server or case file exits 2. The fixture servers run as esbuild bundles
// (harness/safe/compiled.mjs), which start in a third of the time tsx takes.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { compiledEntry } from '../harness/safe/compiled.mjs'
import { firstLoss } from '../harness/claims/mcp/additive.js'
import type { CheckMcpReport } from '../harness/claims/report/build-mcp-report.js'
import { assertValidCheckMcpReport } from '../harness/claims/report/write-mcp-reports.js'
import { checkMcp, type CheckMcpOptions } from '../harness/cli/check-mcp.js'

const RUNS = 10
const SEED = 7
const STATE = '{sandbox}/notes.json'

let dir: string
let count = 0
const bundles = new Map<string, string>()
/** The case file each lying server's refutation saved. */
const saved = new Map<string, string>()
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolreg-check-mcp-'))
  for (const name of ['honest/notes', ...Object.keys(LIARS)]) {
    const bundle = await compiledEntry(pathToFileURL(resolve(`fixtures/mcp/${name}.ts`)))
    bundles.set(name, bundle ? fileURLToPath(bundle) : resolve(`fixtures/mcp/${name}.ts`))
  }
}, 60_000)
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => vi.restoreAllMocks())

/** Each lying server and the one claim it breaks, as tool and clause. */
const LIARS: Record<string, [string, string]> = {
  'lying/read-records-access': ['read_note', 'CLM-5'],
  'lying/racy-lookup': ['(read-only tools)', 'CLM-6'],
  'lying/append-not-idempotent': ['add_note', 'CLM-7'],
  'lying/overwrite-not-additive': ['add_note', 'CLM-8'],
}

const serve = (name: string) => [process.execPath, ...(bundles.get(name)!.endsWith('.ts') ? ['--import', 'tsx'] : []), bundles.get(name)!, STATE]

type RunOptions = Omit<CheckMcpOptions, 'json' | 'counterexampleDir' | 'command'> & { command?: string[]; server?: string }

/** Runs check-mcp on `server` (a fixture's name) or `command`, with a JSON report; returns the exit code and the report. */
async function run({ server, ...options }: RunOptions): Promise<{ code: number; report?: CheckMcpReport }> {
  const json = join(dir, `report-${++count}.json`)
  const command = server ? serve(server) : options.command!
  const code = await checkMcp({
    runs: RUNS, seed: SEED, state: STATE, reuseServer: true, observerGapMs: 20, counterexampleDir: join(dir, 'cases'), json, ...options, command,
  })
  return existsSync(json) ? { code, report: JSON.parse(await readFile(json, 'utf8')) as CheckMcpReport } : { code }
}

const withStatus = (report: CheckMcpReport | undefined, status: string) =>
  (report?.tools ?? []).flatMap((t) => t.claims.filter((c) => c.status === status).map((c) => `${t.name} ${c.id}`))

describe('the honest server: no claim refuted, exit 0', () => {
  it('CLM-5 CLM-6 CLM-7 CLM-8 fixtures/mcp/honest/notes.ts', async () => {
    const { code, report } = await run({ server: 'honest/notes' })
    expect(code).toBe(0)
    expect(() => assertValidCheckMcpReport(report)).not.toThrow()
    expect(withStatus(report, 'refuted')).toEqual([])
    expect(withStatus(report, 'unknown')).toEqual([])
    expect(withStatus(report, 'not-refuted').sort()).toEqual([
      '(read-only tools) CLM-6', 'add_note CLM-7', 'add_note CLM-8', 'delete_note CLM-7', 'list_notes CLM-5', 'read_note CLM-5',
    ])
  })

  it('CLM-5 CLM-6 with a fresh server per trial (no --reuse-server): still none refuted', async () => {
    const { code, report } = await run({ server: 'honest/notes', reuseServer: false, runs: 3, tools: ['read_note'] })
    expect(code).toBe(0)
    expect(withStatus(report, 'not-refuted')).toEqual(['read_note CLM-5', '(read-only tools) CLM-6'])
    expect(report!.server.started).toBeGreaterThan(3)
  })
})

describe('lying servers: refuted on exactly the claim they break, exit 1, and the saved case replays', () => {
  it.each(Object.entries(LIARS))('%s refutes %j', async (name, [tool, clause]) => {
    const { code, report } = await run({ server: name })
    expect(code).toBe(1)
    expect(withStatus(report, 'refuted')).toEqual([`${tool} ${clause}`])
    const claim = report!.tools.find((t) => t.name === tool)!.claims.find((c) => c.id === clause)!
    const check = { 'CLM-5': 'state', 'CLM-6': 'interleaving', 'CLM-7': 'repeat', 'CLM-8': 'additive' }[clause]
    expect(claim.counterexample!.violations.map((v) => v.check)).toEqual([check])
    saved.set(name, claim.counterexample!.file!)
    const replayed = await run({ server: name, replay: claim.counterexample!.file! })
    expect(replayed.code).toBe(1)
    expect(withStatus(replayed.report, 'refuted')).toEqual([`${tool} ${clause}`])
  }, 30_000)

  it('CLM-8 the overwriting server\'s case, replayed on the honest server, is not refuted (exit 0)', async () => {
    const file = saved.get('lying/overwrite-not-additive')!
    const fixed = await run({ server: 'honest/notes', replay: file })
    expect(fixed.code).toBe(0)
    expect(withStatus(fixed.report, 'not-refuted')).toEqual(['add_note CLM-8'])
  })
})

describe('reports', () => {
  it('JUnit and Markdown come from the same run as the JSON', async () => {
    const out = (name: string) => join(dir, `formats-${name}`)
    const code = await checkMcp({
      command: serve('lying/append-not-idempotent'), runs: RUNS, seed: SEED, state: STATE, reuseServer: true, observerGapMs: 20,
      counterexampleDir: join(dir, 'cases'), junit: out('r.xml'), markdown: out('r.md'),
    })
    expect(code).toBe(1)
    expect(await readFile(out('r.xml'), 'utf8')).toMatch(/<testsuites name="toolreg check-mcp" tests="7" failures="1"/)
    expect(await readFile(out('r.md'), 'utf8')).toMatch(/\| add_note \| [^|]+ \| CLM-7 \| REFUTED \|/)
  })
})

describe('an unusable server or case file exits 2 without a report', () => {
  it.each([
    ['a server that exits at once', { command: [process.execPath, '-e', 'process.exit(3)'] }],
    ['a tool the server does not list', { server: 'honest/notes', tools: ['nope'] }],
    ['a replay file that is not a case', { server: 'honest/notes', replay: 'package.json' }],
  ])('%s', async (_label, options: RunOptions) => {
    const { code, report } = await run(options)
    expect(code).toBe(2)
    expect(report).toBeUndefined()
  })

  it('a replay file of a check-tool claim', async () => {
    const file = join(dir, 'check-tool-case.json')
    await writeFile(file, JSON.stringify(
      { toolreg: 'claim-case', version: 1, clause: 'CLM-4', tool: 'read_note', seed: 1, path: '0', case: { arguments: {} }, violations: [] },
    ))
    expect((await run({ server: 'honest/notes', replay: file })).code).toBe(2)
  })
})

describe('CLM-8 additions', () => {
  it.each([
    [{ a: 'x' }, { a: 'xy', b: 'z' }, undefined],
    [[{ uri: 'u', text: 'x' }], [{ uri: 'v', text: 'y' }, { uri: 'u', text: 'x!' }], undefined],
    [{ a: 'x' }, { a: 'y' }, 'a'],
    [[{ uri: 'u', text: 'x' }], [{ uri: 'u', text: 'y' }], '[0].text'],
    [{ dir: { 'f/': true } }, { dir: {} }, 'dir.f/'],
  ])('%j → %j loses %s', (before, after, path) => {
    expect(firstLoss(before, after)?.path).toBe(path)
  })
})
