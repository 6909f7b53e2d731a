// A vitest global setup whose teardown fails the run when a process that toolreg's tests started is
// still running once every test file ended (issue 24: no orphan after any run). Such a process
// carries this run's tag in its environment (set before any worker starts, so every process the
// tests start inherits it: another run's processes on the same machine are not this run's), runs
// toolreg's code (the command, a child, a protocol server, a fixture: not vitest's own workers),
// is reported with its parent and process group, and killed, so that it slows nothing after it.
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { markedProcesses } from '../harness/safe/process-tree.mjs'

const RUN_TAG = 'TOOLREG_TEST_SESSION'

const OURS = [
  /harness\/cli\/toolreg\.mjs/,
  /harness\/cli\/certify-supervisor\.mjs/,
  /harness\/supervisor\/child\.mjs/,
  /harness\/safe\/run-compiled\.mjs/,
  /fixtures\/(hostile|remote|mcp)\//,
  /\.bin\/toolreg\b/,
]
const GRACE_MS = 3_000

interface Leftover {
  pid: number
  ppid: number
  pgid: number
  command: string
}

function leftovers(): Leftover[] {
  const found: Leftover[] = []
  for (const pid of markedProcesses(process.env[RUN_TAG] ?? '', RUN_TAG)) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim()
      if (!OURS.some((pattern) => pattern.test(command))) continue
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
      const [, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      found.push({ pid, ppid: Number(ppid), pgid: Number(pgid), command })
    } catch {
      // gone meanwhile
    }
  }
  return found
}

export function setup(): void {
  process.env[RUN_TAG] = randomUUID()
}

export async function teardown(): Promise<void> {
  let left: Leftover[] = []
  try {
    readdirSync('/proc')
  } catch {
    return // no /proc to look in (not Linux)
  }
  for (const started = Date.now(); Date.now() - started < GRACE_MS; await new Promise((resolve) => setTimeout(resolve, 250))) {
    left = leftovers()
    if (left.length === 0) return
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
  }
  // vitest reports an error thrown here but keeps its exit code: the run fails through ours.
  process.exitCode = 1
  const lines = left.map((p) => `  pid ${p.pid} (parent ${p.ppid}, group ${p.pgid}): ${p.command.slice(0, 200)}`)
  throw new Error(`processes the tests started were still running after them (killed now):\n${lines.join('\n')}`)
}
