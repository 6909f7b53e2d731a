/**
 * The certification a user runs: `toolreg certify` on an adapter, as a child process, timed from
 * spawn to exit (vitest's start-up included). Exit codes are kept: a number is only a figure.
 */
import { spawnSync } from 'node:child_process'
import { spread, type Spread } from './stats.js'

export interface CliTime {
  wallMs: Spread
  exitCodes: number[]
}

export function measureCertifyCli(adapterPath: string, repeats: number, seed: number): CliTime {
  const walls: number[] = []
  const exitCodes: number[] = []
  for (let r = 0; r < repeats; r++) {
    const start = process.hrtime.bigint()
    const run = spawnSync(process.execPath, ['harness/cli/toolreg.mjs', 'certify', '--adapter', adapterPath, '--seed', String(seed + r), '--no-corpus'], { encoding: 'utf8' })
    walls.push(Number(process.hrtime.bigint() - start) / 1e6)
    exitCodes.push(run.status ?? -1)
  }
  return { wallMs: spread(walls), exitCodes }
}
