/**
 * `npm run bench -- --baseline-ref REF`: the same `npm run certify`, timed on another commit
 * checked out beside this tree (a detached git worktree sharing node_modules), the two runs
 * interleaved so that the machine's load falls on both alike. The ratio answers "no slower than
 * before" for a change, measured in one run.
 */
import { execFileSync } from 'node:child_process'
import { symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { certifyArgs, measured } from './certify-cli.js'
import { spread, type Spread } from './stats.js'

export interface BaselineTime {
  ref: string
  commit: string
  currentMs: Spread
  baselineMs: Spread
  /** Median current / median baseline. */
  ratio: number
}

export function measureAgainstBaseline(ref: string, repeats: number, seed: number): BaselineTime {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim()
  const commit = git('rev-parse', '--short', ref)
  // Beside this checkout, not in a temp folder: older commits read the contract from a folder beside the tree.
  const dir = resolve('..', `.toolreg-bench-baseline-${process.pid}`)
  git('worktree', 'add', '--detach', dir, commit)
  try {
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
    const current: number[] = []
    const baseline: number[] = []
    for (let r = 0; r < repeats; r++) {
      baseline.push(measured('npm', certifyArgs(seed + r), dir).wallMs)
      current.push(measured('npm', certifyArgs(seed + r)).wallMs)
    }
    const currentMs = spread(current)
    const baselineMs = spread(baseline)
    return { ref, commit, currentMs, baselineMs, ratio: currentMs.median / baselineMs.median }
  } finally {
    git('worktree', 'remove', '--force', dir)
  }
}
