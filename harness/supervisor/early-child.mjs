// The first child of `toolreg certify`, forked as the command starts (plain JavaScript: this runs
// before the TypeScript loader is registered). It loads the harness while the supervisor loads
// its own modules, then waits for its init message. The child pool takes it for its first slot
// when it was started as that slot would be (the same heap cap and environment); otherwise, and
// when no pool takes it, it is killed.
import { startChild } from './start-child.mjs'

/** The default heap cap of a child (resolve-run.ts DEFAULT_MAX_OLD_SPACE_MB; a test keeps them equal). */
export const EARLY_EXEC_ARGV = ['--max-old-space-size=1024']

let early

export function forkEarly() {
  const env = JSON.stringify(process.env)
  const { child, mark } = startChild(EARLY_EXEC_ARGV)
  child.on('error', () => child.kill('SIGKILL'))
  // Until a pool takes it, it must not keep the command alive (`certify --help`, a usage error).
  child.unref()
  child.channel?.unref()
  early = { child, mark, execArgv: EARLY_EXEC_ARGV.join(' '), env }
}

/** The early child and its tree's mark, if it is still alive and was started with `execArgv` and today's environment. */
export function takeEarly(execArgv) {
  const taken = early
  early = undefined
  if (!taken) return undefined
  const { child } = taken
  const same = taken.execArgv === execArgv.join(' ') && taken.env === JSON.stringify(process.env)
  if (same && child.exitCode === null && child.signalCode === null && child.connected) {
    child.ref()
    child.channel?.ref()
    return { child, mark: taken.mark }
  }
  child.kill('SIGKILL')
  return undefined
}

/** Kills the early child if no pool took it. */
export function discardEarly() {
  early?.child.kill('SIGKILL')
  early = undefined
}
