// Forking a child that runs the implementation so that it, and everything it starts, can be found
// and ended (safe/process-tree.mjs): the leader of a process group of its own (`detached`), its
// tree marked in the environment. Its stdio never holds the supervisor: stdin and stdout are
// /dev/null, stderr a pipe the supervisor reads and lets go of once the child ended. Plain
// JavaScript: the early child is forked before the TypeScript loader is registered.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { SUPERVISOR_PID, TREE_MARK } from '../safe/process-tree.mjs'

const ENTRY = new URL('./child.mjs', import.meta.url)

/** Forks a child as the leader of its own process group, its tree marked. */
export function startChild(execArgv) {
  const mark = randomUUID()
  const child = fork(ENTRY, [], {
    execArgv,
    detached: true,
    env: { ...process.env, [TREE_MARK]: mark, [SUPERVISOR_PID]: String(process.pid) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  })
  return { child, mark }
}
