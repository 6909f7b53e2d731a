// CI gating: every report format from one run, the JSON schema, the known-failures baseline,
// shards that merge into the unsharded verdicts, and the regression corpus.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CertifyReport } from '../harness/report/build-report.js'
import { toolregInProcess } from './in-process-cli.js'
import { assertValidReport } from '../harness/report/validate-report.js'

const toolreg = (...args: string[]) => execa('node', ['harness/cli/toolreg.mjs', ...args], { reject: false, env: { FORCE_COLOR: '0' } })
const MUTANT = 'fixtures/mutants/mode-truthy-classifier.ts'
const readReport = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as CertifyReport
const verdicts = (r: CertifyReport) => r.clauses.map((c) => `${c.id}:${c.status}`)
const lastLine = (stdout: string) => stdout.trimEnd().split('\n').at(-1)

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolreg-reports-'))
})

/** One certify run writing every format, per adapter. */
const formatRuns = new Map<string, ReturnType<typeof certifyAllFormats>>()
const FORMATS_ARGS = ['--runs', '4', '--seed', '5', '--no-corpus']
function certifyAllFormats(label: string, adapter: string[]) {
  const out = (name: string) => join(dir, `${label.replace(/\W/g, '')}-${name}`)
  const files = { json: out('r.json'), junit: out('r.xml'), markdown: out('r.md'), html: out('r.html'), badge: out('b.json') }
  const run = toolreg(
    'certify',
    ...adapter,
    ...FORMATS_ARGS,
    '--json',
    files.json,
    '--junit',
    files.junit,
    '--markdown',
    files.markdown,
    '--html',
    files.html,
    '--badge',
    files.badge,
  )
  return run.then((r) => ({ exitCode: r.exitCode, stdout: r.stdout, files }))
}
const formatsRun = (label: string, adapter: string[]) => {
  if (!formatRuns.has(label)) formatRuns.set(label, certifyAllFormats(label, adapter))
  return formatRuns.get(label)!
}

describe.concurrent('report formats', () => {
  it.each([
    ['the reference', []],
    ['a mutant', ['--adapter', MUTANT]],
  ])('certify writes JSON, JUnit, Markdown, HTML and a badge for %s, and the JSON validates', async (label, adapter) => {
    const { exitCode, files, stdout } = await formatsRun(label, adapter)
    expect(exitCode).toBe(adapter.length === 0 ? 0 : 1)
    expect(lastLine(stdout)).toBe(adapter.length === 0 ? 'gate: pass' : 'gate: FAIL — new failure MODE-2')
    const report = await readReport(files.json)
    expect(() => assertValidReport(report)).not.toThrow()
    expect(await readFile(files.junit, 'utf8')).toMatch(/<testsuites [^>]*tests="76"/)
    expect(await readFile(files.markdown, 'utf8')).toMatch(/required clauses pass/)
    expect(await readFile(files.html, 'utf8')).toMatch(/data-testid="matrix"/)
    const badge = JSON.parse(await readFile(files.badge, 'utf8')) as { message: string }
    expect(badge.message).toBe(adapter.length === 0 ? '61/61 R' : 'failing: MODE-2')
  })
})

describe.concurrent('a failing run (MODE-2: any truthy classifier answer is parallel)', () => {
  it('MODE-2 fails and only MODE-2 fails; the run exits 1', async () => {
    const { exitCode, files, stdout } = await formatsRun('a mutant', ['--adapter', MUTANT])
    const report = await readReport(files.json)
    expect(exitCode).toBe(1)
    expect(lastLine(stdout)).toBe('gate: FAIL — new failure MODE-2')
    expect(report.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['MODE-2'])
    expect(report.summary.untested).toBe(8)
  })

  it('MODE-2 the printed replay command reproduces the failure on the mutant it records; another adapter is refused (exit 2)', async () => {
    const run = await formatsRun('a mutant', ['--adapter', MUTANT])
    const report = await readReport(run.files.json)
    const file = report.clauses.find((c) => c.id === 'MODE-2')?.counterexample
    expect(file).toBeTypeOf('string')
    const printed = /replay: npx toolreg (replay \S+)$/m.exec(run.stdout)?.[1]?.split(' ')
    expect(printed).toEqual(['replay', file])
    const asPrinted = await toolreg(...printed!)
    expect(asPrinted.exitCode).toBe(1)
    expect(asPrinted.stdout).toMatch(/^MODE-2 failed/m)
    const onReference = await toolreg('replay', file!, '--adapter', 'reference-impl/adapters/reference.ts')
    expect(onReference.exitCode).toBe(2)
    expect(onReference.stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe.concurrent('known-failures baseline', () => {
  it('a baseline listing the mutant\'s failing clause makes its run exit 0; without the fault the entry is stale (exit 1)', async () => {
    const baseline = join(dir, 'baseline.yaml')
    await writeFile(baseline, 'known-failures:\n  - clause: MODE-2\n    reason: truthy classifiers are parallel until v2\n')
    const onMutant = await toolreg(
      'certify',
      '--adapter',
      MUTANT,
      '--clause',
      'MODE-2',
      '--clause',
      'MODE-1',
      '--runs',
      '20',
      '--seed',
      '3',
      '--no-corpus',
      '--baseline',
      baseline,
    )
    expect(onMutant.exitCode).toBe(0)
    expect(lastLine(onMutant.stdout)).toBe('gate: pass — 1 known failure')
    const onReference = await toolreg('certify', '--clause', 'MODE-2', '--runs', '20', '--seed', '3', '--no-corpus', '--baseline', baseline)
    expect(onReference.exitCode).toBe(1)
    expect(onReference.stdout).toMatch(/STALE baseline entry/)
    expect(lastLine(onReference.stdout)).toBe('gate: FAIL — stale baseline entry MODE-2')
  })

  it('a baseline entry without a reason is refused (exit 2)', async () => {
    const baseline = join(dir, 'no-reason.yaml')
    await writeFile(baseline, 'known-failures:\n  - clause: MODE-2\n')
    const run = await toolregInProcess('certify', '--clause', 'MODE-2', '--baseline', baseline)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(/reason/)
  })
})

describe.concurrent('shards', () => {
  it('two shards merged equal an unsharded run\'s verdicts', async () => {
    // Six clauses of three families, MODE-2 (the mutant's fault) among them, split between two shards.
    const clauses = ['MODE-1', 'MODE-2', 'PRE-1', 'PRE-2', 'OUT-1', 'OUT-3'].flatMap((id) => ['--clause', id])
    const common = ['--adapter', MUTANT, ...FORMATS_ARGS, ...clauses]
    const [whole, first, second] = await Promise.all([
      toolreg('certify', ...common, '--json', join(dir, 'whole.json')).then((r) => ({ exitCode: r.exitCode, files: { json: join(dir, 'whole.json') } })),
      toolreg('certify', ...common, '--shard', '1/2', '--json', join(dir, 'shard1.json')),
      toolreg('certify', ...common, '--shard', '2/2', '--json', join(dir, 'shard2.json')),
    ])
    expect([whole.exitCode, first.exitCode]).toContain(1)
    expect(second.exitCode).not.toBe(2)
    const merged = await toolreg('merge', join(dir, 'shard1.json'), join(dir, 'shard2.json'), '--json', join(dir, 'merged.json'))
    expect(merged.exitCode).toBe(whole.exitCode)
    expect(verdicts(await readReport(join(dir, 'merged.json')))).toEqual(verdicts(await readReport(whole.files.json)))
    expect(lastLine(merged.stdout)).toBe('gate: FAIL — new failure MODE-2')
    // A shard left out, or given twice, is named: exit 2, never a green merge of part of a run.
    const partial = await toolreg('merge', join(dir, 'shard1.json'))
    expect([partial.exitCode, partial.stderr.trim()]).toEqual([2, 'toolreg: missing shard 2/2 of 2'])
    const twice = await toolreg('merge', join(dir, 'shard1.json'), join(dir, 'shard1.json'), join(dir, 'shard2.json'))
    expect(twice.exitCode).toBe(2)
    expect(twice.stderr).toMatch(/^toolreg: shard 1\/2 given twice: /)
  }, 180_000)
})

describe.concurrent('regression corpus', () => {
  it('a counterexample is saved once to the corpus and found again first on the next run', async () => {
    const corpus = join(dir, 'corpus')
    const args = ['certify', '--adapter', MUTANT, '--clause', 'MODE-2', '--runs', '30', '--corpus', corpus]
    const first = await toolreg(...args, '--seed', '1')
    expect(first.exitCode).toBe(1)
    const saved = await readdir(join(corpus, 'MODE-2'))
    expect(saved).toHaveLength(1)
    const again = await toolreg(...args, '--seed', '2', '--json', join(dir, 'again.json'))
    expect(again.exitCode).toBe(1)
    expect((await readReport(join(dir, 'again.json'))).clauses.find((c) => c.id === 'MODE-2')?.numRuns).toBe(1)
    expect(existsSync(join(corpus, 'MODE-2'))).toBe(true)
  })
})

describe.concurrent('coverage of the implementation under test', () => {
  it('--coverage puts a summary in the JSON report and the full output under reports/coverage', async () => {
    const run = await toolreg(
      'certify',
      '--clause',
      'PRE-1',
      '--clause',
      'OUT-1',
      '--runs',
      '10',
      '--seed',
      '2',
      '--no-corpus',
      '--coverage',
      '--json',
      join(dir, 'coverage.json'),
    )
    expect(run.exitCode).toBe(0)
    const report = await readReport(join(dir, 'coverage.json'))
    expect(report.coverage?.include).toEqual(['reference-impl/**/*.ts'])
    expect(report.coverage?.lines).toBeGreaterThan(0)
    expect(existsSync('reports/coverage/coverage-summary.json')).toBe(true)
  })
})

describe.concurrent('campaign mode', () => {
  it('--duration repeats the certification with fresh seeds until the time is up and saves what it finds', async () => {
    const corpus = join(dir, 'campaign-corpus')
    // Seed 41's first round finds the fault (seed 40's does not): a loaded machine that fits one
    // round in the second still finds it.
    const run = await toolreg('certify', '--adapter', MUTANT, '--clause', 'MODE-2', '--runs', '5', '--seed', '41', '--duration', '1s', '--corpus', corpus)
    expect(run.exitCode).toBe(1)
    // Rounds take fresh seeds, one after another, and stop only when no time is left: a loaded
    // machine may fit one round in the second, a quiet one several.
    const rounds = [...run.stderr.matchAll(/campaign: round (\d+) done \(seed (\d+)\), (\d+)s left/g)].map((m) => m.slice(1).map(Number))
    expect(rounds.length).toBeGreaterThanOrEqual(1)
    expect(rounds.map(([round, seed]) => [round, seed])).toEqual(rounds.map((_, i) => [i + 1, 41 + i]))
    expect(rounds.at(-1)![2]).toBe(0)
    expect((await readdir(join(corpus, 'MODE-2'))).length).toBeGreaterThanOrEqual(1)
  })
})
