/** The command that replays a saved counterexample, as every format prints it. */

/** `file` quoted for a POSIX shell when it holds anything but plain path characters. */
const shellWord = (file: string) => (/^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replaceAll("'", "'\\''")}'`)

/** Re-runs the case on the implementation the file records (README: "Read a failure, replay it"). */
export const replayCommand = (file: string): string => `npx toolreg replay ${shellWord(file)}`

/** Re-runs a saved refuting case of `check-tool` on the tool module it was found on. */
export const claimReplayCommand = (tool: { module: string; export?: string }, file: string): string =>
  `npx toolreg check-tool ${shellWord(tool.module)}${tool.export ? ` --export ${shellWord(tool.export)}` : ''} --replay ${shellWord(file)}`

/** Re-runs a saved refuting case of `check-mcp` on the server command it was found on. */
export const mcpReplayCommand = (server: { command: readonly string[]; state?: string; reuseServer?: boolean }, file: string): string =>
  `npx toolreg check-mcp${server.state ? ` --state ${shellWord(server.state)}` : ''}${server.reuseServer ? ' --reuse-server' : ''} ` +
  `--replay ${shellWord(file)} -- ${server.command.map(shellWord).join(' ')}`
