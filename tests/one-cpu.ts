// Starvation made deterministic: processes pinned to CPU 0 with taskset where the machine has it.
import { execFileSync } from 'node:child_process'

/** Whether taskset can pin a process to CPU 0 here. */
export const pinning = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return true
  } catch {
    return false
  }
})()

/** The command and its arguments, on CPU 0 when pinning is possible. */
export const pinned = (command: string, args: string[]): [string, string[]] =>
  pinning ? ['taskset', ['-c', '0', command, ...args]] : [command, args]
