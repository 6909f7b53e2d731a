/** The variable that marks a child's process tree; its value is unique to the child. */
export declare const TREE_MARK: string
/** The variable that holds the supervisor's pid in a child's environment. */
export declare const SUPERVISOR_PID: string
/** The pid of the supervisor that started this process (from the environment; else process.ppid). */
export declare function supervisorPid(): number
/** Ends, with SIGKILL, the process group `leader` leads and every process carrying `mark` (this process excepted). */
export declare function endTree(leader: number | undefined, mark: string): void
/** Ends this process and its tree (a child whose supervisor is gone). */
export declare function endOwnTree(): void
/** The processes whose environment carries `mark`, this one excepted. */
export declare function markedProcesses(mark: string, variable?: string): number[]
/** A child whose supervisor (a pid) is gone: that supervisor's run folders removed, its tree and itself ended. */
export declare function endOrphan(supervisor: number): void
/** A run folder: `toolreg-child-<supervisor pid>-` and mkdtemp's suffix, in the temporary folder. */
export declare const RUN_FOLDER_PREFIX: string
/** The run folders of the supervisor with pid `supervisor`. */
export declare function runFoldersOf(supervisor: number): string[]
/** A supervisor killed past its handlers: every process carrying its pid, their groups, its run folders ended. */
export declare function endRunOf(supervisor: number): void
