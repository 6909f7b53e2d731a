/**
 * `toolreg peers`: certify every shipped peer adapter (reference-impl/adapters/peers/index.ts) and write
 * the matrix clause × library@version — passed, failed (with its shrunk counterexample), or not
 * applicable (which seam is missing) — to reports/peer-matrix.md, and with `--readme` into the peer
 * adapters' README (MATRIX_README) between its peer-matrix markers. With `--baseline`, each
 * library's known-failures file gates the run: exit 1 on a failure it does not list or on a stale
 * entry, 2 on an error.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLAUSES } from '../contract/clauses.js'
import type { CertifyReport, ClauseVerdict } from '../report/build-report.js'
import { PEERS, type PeerEntry } from '../../reference-impl/adapters/peers/index.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const MATRIX_FILE = 'reports/peer-matrix.md'
/** The README beside the peer adapters, whose peer-matrix section `--readme` rewrites. */
export const MATRIX_README = 'reference-impl/adapters/peers/README.md'
/** Counterexamples of the matrix, kept beside it so each failure is one click away. */
export const MATRIX_CASES = 'reports/peers'
const START = '<!-- peer-matrix:start -->'
const END = '<!-- peer-matrix:end -->'

export interface PeersOptions {
  runs: number
  seed: number
  baseline: boolean
  readme: boolean
  /** Only these libraries (folder names); all when empty. */
  libraries: readonly string[]
  out?: string
}

export interface PeerRun {
  peer: PeerEntry
  report?: CertifyReport
  exitCode: number
  /** The harness's one line when the run produced no report. */
  error?: string
  ms: number
}

export async function peers(options: PeersOptions): Promise<number> {
  const chosen = PEERS.filter((p) => options.libraries.length === 0 || options.libraries.includes(p.library))
  const runs: PeerRun[] = []
  for (const peer of chosen) {
    const run = await certifyPeer(peer, options)
    runs.push(run)
    const s = run.report?.summary
    const outcome = s ? `${s.passed} passed, ${s.failed} failed, ${s.notApplicable} not applicable` : run.error
    console.error(`peers: ${peer.library}@${peer.version}: ${outcome} (${(run.ms / 1000).toFixed(1)}s)`)
    if (options.baseline && run.exitCode === 1 && run.report) console.error(`peers: ${peer.library}@${peer.version}: ${gateLine(run.report, peer)}`)
  }
  const markdown = peerMatrix(runs, options)
  const out = resolve(options.out ?? MATRIX_FILE)
  await mkdir(dirname(out), { recursive: true })
  await writeFile(out, markdown)
  if (options.readme) await embedInReadme(resolve(ROOT, MATRIX_README), markdown)
  console.log(markdown)
  return Math.max(0, ...runs.map((r) => (options.baseline ? r.exitCode : r.exitCode === 2 ? 2 : 0)))
}

async function certifyPeer(peer: PeerEntry, options: PeersOptions): Promise<PeerRun> {
  const started = Date.now()
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-peers-'))
  const json = join(dir, 'report.json')
  const baseline = options.baseline && existsSync(resolve(ROOT, peer.baseline)) ? ['--baseline', resolve(ROOT, peer.baseline)] : []
  const args = [
    'certify',
    '--adapter',
    resolve(ROOT, peer.module),
    '--runs',
    String(options.runs),
    '--seed',
    String(options.seed),
    '--no-corpus',
    '--json',
    json,
    ...baseline
  ]
  try {
    const { execa } = await import('execa')
    const child = await execa(process.execPath, [resolve(ROOT, 'harness/cli/toolreg.mjs'), ...args], { reject: false, cwd: process.cwd(), all: true })
    if (!existsSync(json)) return { peer, exitCode: 2, error: lastLine(child.all ?? '') || `certify exited ${child.exitCode}`, ms: Date.now() - started }
    const report = JSON.parse(await readFile(json, 'utf8')) as CertifyReport
    await keepCounterexamples(report)
    return { peer, report, exitCode: child.exitCode ?? 2, ms: Date.now() - started }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Copies each failure's counterexample under reports/peers/<adapter>/ and points the verdict at it. */
async function keepCounterexamples(report: CertifyReport): Promise<void> {
  const folder = join(MATRIX_CASES, report.adapter.name.replace(/[^\w.-]+/g, '_'))
  for (const clause of report.clauses) {
    if (!clause.counterexample || !existsSync(clause.counterexample)) continue
    await mkdir(folder, { recursive: true })
    const kept = join(folder, basename(clause.counterexample))
    await copyFile(clause.counterexample, kept)
    clause.counterexample = kept
  }
}

/** Why a library's baseline gate failed: the failures it does not list, the entries that pass now. */
export function gateLine(report: CertifyReport, peer: PeerEntry): string {
  const fresh = report.clauses.filter((c) => c.status === 'failed' && c.baseline !== 'expected-failure').map((c) => c.id)
  const stale = report.clauses.filter((c) => c.baseline === 'stale').map((c) => c.id)
  const parts = [fresh.length ? `new failures ${fresh.join(', ')}` : '', stale.length ? `stale entries ${stale.join(', ')} (they pass now)` : '']
  return `the baseline gate fails: ${parts.filter(Boolean).join('; ')} (${peer.baseline})`
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? ''

/** The matrix as Markdown: one row per certifiable clause, one column per library@version. */
export function peerMatrix(runs: readonly PeerRun[], options: Pick<PeersOptions, 'runs' | 'seed'>): string {
  const head = runs.map((r) => `${r.peer.library}@${r.peer.version}`)
  const lines = [
    `Generated by \`npm run peer-matrix\` (\`toolreg peers --runs ${options.runs} --seed ${options.seed}\`): ` +
      "every clause × library@version, certified offline with each library's own test doubles.",
    'A failure links its shrunk counterexample (`npx toolreg replay <file>` replays it on the peer adapter ' +
      'it records); `n/a` names the seam the library does not have.',
    '',
    `| clause | ${head.join(' | ')} |`,
    `|---|${head.map(() => '---').join('|')}|`,
  ]
  const nowhere: string[] = []
  for (const clause of CLAUSES.filter((c) => c.level !== 'claim')) {
    const cells = runs.map((r) => cell(r, r.report?.clauses.find((c) => c.id === clause.id)))
    if (cells.every((c) => c.startsWith('n/a'))) {
      const reasons = [...new Set(cells.map((c) => c.replace(/^n\/a \((.*)\)$/, '$1')))]
      nowhere.push(`${clause.id} (${reasons.join('; ')})`)
      continue
    }
    lines.push(`| ${clause.id} | ${cells.join(' | ')} |`)
  }
  if (nowhere.length > 0) lines.push('', `Not applicable to any of these libraries: ${nowhere.join(', ')}.`)
  const errors = runs.flatMap((r) => [...(r.error ? [r.error] : []), ...(r.report?.errors ?? [])].map((e) => `- ${r.peer.library}@${r.peer.version}: ${e}`))
  if (errors.length > 0) lines.push('', '**Harness errors**', '', ...errors)
  lines.push('', `Times: ${runs.map((r) => `${r.peer.library}@${r.peer.version} ${(r.ms / 1000).toFixed(0)}s`).join(', ')}.`)
  return `${lines.join('\n')}\n`
}

function cell(run: PeerRun, verdict: ClauseVerdict | undefined): string {
  if (!verdict) return run.error ? 'error' : '—'
  switch (verdict.status) {
    case 'passed':
      return verdict.baseline === 'stale' ? 'pass (**STALE** baseline entry)' : 'pass'
    case 'failed': {
      const mark = verdict.baseline === 'expected-failure' ? 'FAIL (known)' : '**FAIL**'
      return verdict.counterexample ? `[${mark}](${verdict.counterexample.replace(/^reports\//, '')})` : mark
    }
    case 'not-applicable': {
      const seam = /\(no (.+) seam\)/.exec(verdict.reason ?? '')
      return seam ? `n/a (no ${seam[1]})` : `n/a (the adapter has no ${verdict.profile} profile)`
    }
    default:
      return verdict.baseline === 'stale' ? 'STALE' : `untested`
  }
}

async function embedInReadme(file: string, markdown: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  const start = text.indexOf(START)
  const end = text.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} … ${END} section`)
  // The matrix's links are relative to reports/; the README's, to its own folder.
  const reports = relative(dirname(file), resolve(ROOT, 'reports')).split('\\').join('/')
  const relinked = markdown.replace(/\]\((peers\/)/g, `](${reports}/$1`)
  await writeFile(file, `${text.slice(0, start + START.length)}\n${relinked}${text.slice(end)}`)
}

/** `toolreg peers` parses its own flags: `--baseline` is a switch here, not a file. */
export async function peersCommand(argv: string[]): Promise<number> {
  const { parseArgs } = await import('node:util')
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      baseline: { type: 'boolean' },
      readme: { type: 'boolean' },
      library: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
  })
  const number = (flag: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} needs a non-negative integer, got "${raw}"`)
    return n
  }
  const unknown = (values.library ?? []).filter((l) => !PEERS.some((p) => p.library === l))
  if (unknown.length > 0) throw new Error(`unknown peer library ${unknown.join(', ')} (known: ${[...new Set(PEERS.map((p) => p.library))].join(', ')})`)
  return peers({
    // certify's own default depth: a fault counts as found only within the runs a user gets.
    runs: number('runs', values.runs, 100) || 1,
    seed: number('seed', values.seed, 1),
    baseline: values.baseline === true,
    readme: values.readme === true,
    libraries: values.library ?? [],
    ...(values.out ? { out: values.out } : {}),
  })
}
