/**
 * The server under test as the user gave it: a command line after `--`, in which `{sandbox}`
 * stands for the fresh temporary directory of the run (the server's state, unless --state names
 * another path). The same directory is also in the server's environment as TOOLREG_SANDBOX.
 */
export const SANDBOX_PLACEHOLDER = '{sandbox}'

export interface ServerCommand {
  command: string
  args: string[]
  /** The directory `{sandbox}` stands for. */
  sandbox: string
}

export function expandSandbox(word: string, sandbox: string): string {
  return word.split(SANDBOX_PLACEHOLDER).join(sandbox)
}

/** `value` with every occurrence of the sandbox's path written as `{sandbox}`, so a saved case replays in another sandbox. */
export function hideSandbox<T>(value: T, sandbox: string): T {
  return JSON.parse(JSON.stringify(value).split(JSON.stringify(sandbox).slice(1, -1)).join(SANDBOX_PLACEHOLDER)) as T
}

/** The saved `value` with `{sandbox}` standing for this run's sandbox again. */
export function showSandbox<T>(value: T, sandbox: string): T {
  return JSON.parse(JSON.stringify(value).split(SANDBOX_PLACEHOLDER).join(JSON.stringify(sandbox).slice(1, -1))) as T
}

export function withSandbox(words: readonly string[], sandbox: string): ServerCommand {
  const [command, ...args] = words.map((word) => expandSandbox(word, sandbox))
  if (command === undefined || command === '') throw new Error('no server command was given after --')
  return { command, args, sandbox }
}
