import type { ChildProcess } from 'node:child_process'

export declare const EARLY_EXEC_ARGV: readonly string[]
export declare function forkEarly(): void
export declare function takeEarly(execArgv: readonly string[]): { child: ChildProcess; mark: string } | undefined
export declare function discardEarly(): void
