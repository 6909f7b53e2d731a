// `toolreg certify` starts here: this process forks the supervisor (certify-supervisor.mjs), its
// stdio inherited, and exits with its exit code. An implementation may kill the supervisor past
// every handler (a shell's `kill -KILL $PPID`): then this process names, in one line, the clauses
// the supervisor said its children held, ends every process of the run, and exits 2. Signals sent
// to this process go to the supervisor, whose handlers stop the run (cli/certify.ts). Plain
// JavaScript that loads no harness module: the extra process costs little.
import { fork } from 'node:child_process'

const SUPERVISOR = new URL('./certify-supervisor.mjs', import.meta.url)
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP']

/** Runs `toolreg certify` with the command line `argv` (`certify` first) in a supervisor process. */
export function launchCertify(argv) {
  const supervisor = fork(SUPERVISOR, argv, { stdio: 'inherit', serialization: 'json' })
  let held = []
  supervisor.on('message', (message) => {
    if (message?.type === 'toolreg-held' && Array.isArray(message.clauses)) held = message.clauses
  })
  for (const signal of FORWARDED) process.on(signal, () => supervisor.kill(signal))
  supervisor.on('error', (error) => fail(`could not start the supervisor (${error.message})`))
  // After 'close', not 'exit': every message the supervisor sent has been read.
  supervisor.on('close', async (code, signal) => {
    if (signal === null) process.exit(code ?? 2)
    const { endRunOf } = await import('../safe/process-tree.mjs')
    endRunOf(supervisor.pid)
    const clauses = held.length > 0 ? held.join(', ') : 'no clause'
    fail(`the supervisor was killed (${signal}) while checking ${clauses}; no report written`)
  })
}

function fail(reason) {
  console.error(`toolreg: harness error: ${reason}`)
  process.exit(2)
}
