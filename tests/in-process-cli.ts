// `toolreg` called in this process: main() returns the exit code harness/cli/toolreg.mjs sets,
// and what it writes to console.error is collected. For input checks, which need no process of
// their own (tests/cli.test.ts proves through a process that its exit code is main()'s).
import { vi } from 'vitest'
import { main } from '../harness/cli/main.js'

export async function toolregInProcess(...args: string[]): Promise<{ exitCode: number; stderr: string }> {
  const lines: string[] = []
  const spy = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')))
  try {
    return { exitCode: await main(args), stderr: lines.join('\n') }
  } finally {
    spy.mockRestore()
  }
}
