/**
 * The certification a user runs: `npm run certify` on the reference, as a child process, timed
 * from spawn to exit (npm, tsx and vitest start-up included), beside a bare `node -e` start
 * measured the same way. CPU seconds and peak RSS add up every Node process of the run (the
 * usage probe, loaded through NODE_OPTIONS). Exit codes are kept: a number is only a figure.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { spread, type Spread } from './stats.js'

export interface CliTime {
  wallMs: Spread
  /** A bare `node -e ''` start, measured the same way in the same run. */
  bareNodeMs: Spread
  /** User + system CPU of every Node process of the run. */
  cpuSeconds: Spread
  /** The largest peak RSS of any one process of the run. */
  peakRssMb: Spread
  /** `npm run certify -- --clause PRE-1`: what start-up costs a short run. */
  singleClauseMs: Spread
  exitCodes: number[]
}

const PROBE = pathToFileURL(new URL('./usage-probe.mjs', import.meta.url).pathname).href

interface Usage {
  wallMs: number
  cpuSeconds: number
  peakRssMb: number
  exitCode: number
}

export function measured(command: string, args: readonly string[], cwd = process.cwd()): Usage {
  const dir = mkdtempSync(join(tmpdir(), 'toolreg-usage-'))
  const env = { ...process.env, TOOLREG_USAGE_DIR: dir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${PROBE}`.trim() }
  const start = process.hrtime.bigint()
  const run = spawnSync(command, args, { encoding: 'utf8', env, cwd })
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6
  const records = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { userUs: number; systemUs: number; maxRssKb: number })
  rmSync(dir, { recursive: true, force: true })
  const cpuSeconds = records.reduce((sum, r) => sum + (r.userUs + r.systemUs) / 1e6, 0)
  const peakRssMb = Math.max(0, ...records.map((r) => r.maxRssKb / 1024))
  return { wallMs, cpuSeconds, peakRssMb, exitCode: run.status ?? -1 }
}

export function measureCertifyCli(repeats: number, seed: number): CliTime {
  const runs: Usage[] = []
  const bare: number[] = []
  const single: number[] = []
  for (let r = 0; r < repeats; r++) {
    bare.push(measured(process.execPath, ['-e', '']).wallMs)
    runs.push(measured('npm', certifyArgs(seed + r)))
    single.push(measured('npm', [...certifyArgs(seed + r), '--clause', 'PRE-1']).wallMs)
  }
  return {
    wallMs: spread(runs.map((u) => u.wallMs)),
    bareNodeMs: spread(bare),
    cpuSeconds: spread(runs.map((u) => u.cpuSeconds)),
    peakRssMb: spread(runs.map((u) => u.peakRssMb)),
    singleClauseMs: spread(single),
    exitCodes: runs.map((u) => u.exitCode),
  }
}

/** `npm run certify` on the reference at default depth, output to a throwaway corpus. */
export const certifyArgs = (seed: number) => ['run', '--silent', 'certify', '--', '--seed', String(seed), '--no-corpus']
