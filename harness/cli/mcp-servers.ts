/**
 * `npm run mcp-servers [-- --seed S --runs N --server NAME]`: runs `toolreg check-mcp` on the three
 * reference MCP servers of the npm registry (devDependencies, all offline) and compares each run's
 * refuted claims with the verdicts judged by hand in harness/claims/mcp/README.md. Reports go to
 * reports/mcp-servers/<name>.{json,md}. Exit 1 when a run refutes another set of claims than the
 * judged one, or exits 2.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import type { CheckMcpReport } from '../claims/report/build-mcp-report.js'

interface ReferenceServer {
  name: string
  /** check-mcp's options and the server command after `--`. */
  options: string[]
  command: string[]
  /** `tool clause` of every claim judged refuted by hand (harness/claims/mcp/README.md). */
  refuted: string[]
  /** Runs per claim when --runs is not given: a server that needs a fresh process per trial gets fewer. */
  runs: number
}

const bin = (pkg: string) => createRequire(import.meta.url).resolve(`@modelcontextprotocol/${pkg}/dist/index.js`)

const SERVERS: ReferenceServer[] = [
  {
    name: 'server-filesystem',
    options: ['--reuse-server'],
    command: [process.execPath, bin('server-filesystem'), '{sandbox}'],
    refuted: [],
    runs: 20,
  },
  {
    name: 'server-memory',
    options: ['--reuse-server', '--state', '{sandbox}/memory.jsonl'],
    command: ['env', 'MEMORY_FILE_PATH={sandbox}/memory.jsonl', process.execPath, bin('server-memory')],
    refuted: [],
    runs: 20,
  },
  {
    name: 'server-everything',
    options: ['--call-timeout', '1s'],
    command: [process.execPath, bin('server-everything'), 'stdio'],
    refuted: ['gzip-file-as-resource CLM-8'],
    runs: 10,
  },
]

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, runs: { type: 'string' }, server: { type: 'string', multiple: true } },
})
let failed = false
for (const server of SERVERS.filter((s) => !values.server?.length || values.server.includes(s.name))) {
  const out = `reports/mcp-servers/${server.name}`
  const started = Date.now()
  const run = await execa(process.execPath, [
    'harness/cli/toolreg.mjs', 'check-mcp', '--seed', values.seed, '--runs', values.runs ?? String(server.runs), ...server.options,
    '--json', `${out}.json`, '--markdown', `${out}.md`, '--', ...server.command,
  ], { reject: false, all: true })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log(run.all)
  if (run.exitCode === 2) {
    console.log(`${server.name}: check-mcp exited 2 (${seconds}s)`)
    failed = true
    continue
  }
  const report = JSON.parse(await readFile(`${out}.json`, 'utf8')) as CheckMcpReport
  const refuted = report.tools.flatMap((t) => t.claims.filter((c) => c.status === 'refuted').map((c) => `${t.name} ${c.id}`))
  const same = JSON.stringify(refuted.sort()) === JSON.stringify([...server.refuted].sort())
  const judged = same ? 'as judged' : `NOT as judged (${server.refuted.join(', ') || 'none'})`
  console.log(`${server.name}: ${judged}: refuted ${refuted.join(', ') || 'none'} — ${seconds}s\n`)
  failed ||= !same
}
process.exitCode = failed ? 1 : 0
