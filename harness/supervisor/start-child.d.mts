import type { ChildProcess } from 'node:child_process'

/** Forks a child as the leader of its own process group, its tree marked. */
export declare function startChild(execArgv: readonly string[]): { child: ChildProcess; mark: string }
