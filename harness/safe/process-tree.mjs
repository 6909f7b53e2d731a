// Finding and ending a child's process tree: the child that runs the implementation leads a
// process group of its own (supervisor/start-child.mjs forks it `detached`, so a signal to the
// group reaches its helpers and none of the supervisor's), and carries a mark in its environment
// that its descendants inherit, so that those that left the group (a daemon that called setsid)
// are found in /proc by it. Plain JavaScript: the watchdog thread ends the tree when the
// supervisor died. A descendant that clears its environment and leaves the group is beyond reach
// (a limit harness/README.md notes).
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The variable that marks a child's process tree; its value is unique to the child. */
export const TREE_MARK = 'TOOLREG_TREE_MARK'
/** The variable that holds the supervisor's pid in a child's environment. */
export const SUPERVISOR_PID = 'TOOLREG_SUPERVISOR_PID'

/**
 * The pid of the supervisor that started this process: from the environment, since
 * `process.ppid` read after the supervisor died (while the child was still loading) is already
 * another process's.
 */
export function supervisorPid() {
  const pid = Number(process.env[SUPERVISOR_PID])
  return Number.isInteger(pid) && pid > 0 ? pid : process.ppid
}
// Kept before the escape traps replace process.kill in the child (this module loads before them).
const kill = process.kill.bind(process)

/**
 * Ends, with SIGKILL, the process group `leader` leads and every process carrying `mark` (this
 * process excepted: a child ending its own tree kills itself last, with its group). Twice: a
 * helper may have started another while the first pass ran.
 */
export function endTree(leader, mark) {
  for (let pass = 0; pass < 2; pass++) {
    for (const pid of markedProcesses(mark)) signal(pid)
    if (leader !== undefined && leader !== process.pid) signal(-leader)
  }
}

/**
 * A child whose supervisor (`supervisor`, a pid) is gone leaves nothing behind: the run folders
 * of that supervisor (supervisor/run-folder.ts; every child of a dead supervisor is on its way
 * out too), its tree and itself.
 */
export function endOrphan(supervisor) {
  // Until none is left, and only then the kill: this process's main thread and its watchdog thread
  // (and other children) may be removing the same folders at once, and writing into them.
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
    const folders = runFoldersOf(supervisor)
    if (folders.length === 0) break
    for (const folder of folders) {
      try {
        rmSync(folder, { recursive: true, force: true })
      } catch {
        // removed meanwhile, or written into: looked at again
      }
    }
  }
  endOwnTree()
}

/**
 * What a supervisor killed past its handlers (pid `supervisor`) left, ended by the process that
 * started it (cli/certify-launcher.mjs): every process carrying its pid (its children and what
 * they started), their process groups, and its run folders. Until none is found, a few times.
 */
export function endRunOf(supervisor) {
  for (let pass = 0; pass < REMOVE_ATTEMPTS; pass++) {
    const left = markedProcesses(String(supervisor), SUPERVISOR_PID)
    if (left.length === 0) break
    for (const pid of left) {
      signal(-pid)
      signal(pid)
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
  }
  for (const folder of runFoldersOf(supervisor)) {
    try {
      rmSync(folder, { recursive: true, force: true })
    } catch {
      // written into meanwhile: the next run's sweep removes it (its supervisor is dead)
    }
  }
}

/** Past these, the next run's sweep removes what is left (its supervisor is dead). */
const REMOVE_ATTEMPTS = 20

/** A run folder: `toolreg-child-<supervisor pid>-` and mkdtemp's suffix, in the temporary folder. */
export const RUN_FOLDER_PREFIX = 'toolreg-child-'

/** The run folders of the supervisor with pid `supervisor`. */
export function runFoldersOf(supervisor) {
  try {
    const own = `${RUN_FOLDER_PREFIX}${supervisor}-`
    return readdirSync(tmpdir()).filter((name) => name.startsWith(own)).map((name) => join(tmpdir(), name))
  } catch {
    return []
  }
}

/** Ends this process and its tree. */
export function endOwnTree() {
  const mark = process.env[TREE_MARK]
  if (mark) for (const pid of markedProcesses(mark)) signal(pid)
  signal(leadsOwnGroup() ? -process.pid : process.pid)
}

/** The processes whose environment carries `mark` in `variable`, this one excepted (none where /proc cannot be read). */
export function markedProcesses(mark, variable = TREE_MARK) {
  const entry = Buffer.from(`${variable}=${mark}`, 'latin1')
  const found = []
  let names
  try {
    names = readdirSync('/proc')
  } catch {
    return found
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      if (holdsEntry(readFileSync(`/proc/${name}/environ`), entry)) found.push(Number(name))
    } catch {
      // gone, or another user's
    }
  }
  return found
}

/**
 * Whether a NUL-separated environment holds `entry` as one whole variable: found in the bytes, not
 * decoded and split (every process on the machine is read, on every child's end).
 */
function holdsEntry(environ, entry) {
  for (let at = environ.indexOf(entry); at >= 0; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true
  }
  return false
}

function leadsOwnGroup() {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === process.pid
  } catch {
    return false
  }
}

function signal(pid) {
  try {
    kill(pid, 'SIGKILL')
  } catch {
    // already gone
  }
}
