// The command line as a user meets it: exit codes, one-line errors, help. A failing run and its
// replay: tests/reports.test.ts, beside the report formats of the same run.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it, vi } from 'vitest'
import { toolregInProcess } from './in-process-cli.js'

const toolreg = (...args: string[]) => execa('node', ['harness/cli/toolreg.mjs', ...args], { reject: false, env: { FORCE_COLOR: '0' } })

// The command's exit code is main()'s (harness/cli/toolreg.mjs): two cases go through a process to
// prove that, the rest call main() in this one (tests/in-process-cli.ts).
const BAD_INPUT: [string, string[], RegExp][] = [
  ['a missing adapter module', ['certify', '--adapter', 'fixtures/adapters/nope.ts'], /not found/],
  ['an adapter without a default export', ['certify', '--adapter', 'fixtures/adapters/broken/no-default-export.ts'], /no default export/],
  ['an adapter whose create() throws', ['certify', '--adapter', 'fixtures/adapters/broken/create-throws.ts'], /create\(\) threw/],
  ['an unknown clause ID', ['certify', '--clause', 'PRE-99'], /unknown clause ID\(s\): PRE-99/],
  ['an unknown flag', ['certify', '--frobnicate'], /Unknown option/],
  ['a non-numeric --runs', ['certify', '--runs', 'many'], /--runs needs a positive integer/],
  ['a negative --runs', ['certify', '--runs', '-1'], /--runs/],
  ['a report path under a file, checked before the run', ['certify', '--json', 'package.json/report.json'], /cannot write package\.json\/report\.json/],
  ['a non-numeric --workers', ['certify', '--workers', 'abc'], /--workers needs a positive integer/],
  ['no --workers at all', ['certify', '--workers', '0'], /--workers needs a positive integer/],
  ['a negative --time-budget', ['certify', '--time-budget', '-1'], /--time-budget/],
  ['a zero --time-budget', ['certify', '--time-budget=0s'], /--time-budget needs a time above zero/],
  ['a --max-heap that is not a number', ['certify', '--max-heap', 'lots'], /--max-heap needs a positive integer/],
  ['an unknown command', ['frobnicate'], /unknown command/],
  // Unquoted, the server's arguments were ignored and `node` alone was started: a 20 s wait for its handshake.
  ['a server command with arguments, not quoted', ['certify', '--command', 'node', 'server.js', '--clause', 'DEF-1'], /--command "node server\.js"/],
  ['an argument certify does not take', ['certify', 'reference'], /certify does not take "reference"/],
  ['replay with two files', ['replay', 'a.json', 'b.json'], /replay does not take "b\.json"/],
  // Accepted and ignored, it would have left the user waiting for a report that never comes.
  ['an option the command does not read', ['check-tool', 'tools/honest.ts', '--html', 'claims.html'], /check-tool does not take --html/],
  ['check-tool without a module', ['check-tool'], /check-tool needs a tool module/],
  ['check-tool on a missing module', ['check-tool', 'fixtures/tools/nope.ts'], /nope\.ts/],
]
const THROUGH_A_PROCESS = new Set(['a missing adapter module', 'an unknown flag'])

describe('bad input exits 2 with one line naming the problem, called in process', () => {
  it.each(BAD_INPUT.filter(([label]) => !THROUGH_A_PROCESS.has(label)))('%s', async (_label, args, message) => {
    const run = await toolregInProcess(...args)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/internal error/)
  })

  it.each([
    ['a truncated replay file', '{"toolreg": "counterexample", "version": 1, "clause": "PRE-', /not a JSON file/],
    ['a replay file of another schema version', JSON.stringify({ toolreg: 'counterexample', version: 99, clause: 'PRE-1' }), /version 99/],
  ])('%s', async (_label, text, message) => {
    const file = join(await mkdtemp(join(tmpdir(), 'toolreg-replay-')), 'case.json')
    await writeFile(file, text)
    const run = await toolregInProcess('replay', file)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe.concurrent('bad input exits 2 with one line naming the problem', () => {
  it.each(BAD_INPUT.filter(([label]) => THROUGH_A_PROCESS.has(label)))('%s', async (_label, args, message) => {
    const run = await toolreg(...args)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(message)
  })

  it('a replay file that is not a scenario names the first invalid field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolreg-replay-'))
    const file = join(dir, 'bad.json')
    await writeFile(file, JSON.stringify(
      {
        toolreg: 'counterexample',
        version: 1,
        clause: 'PRE-3',
        property: 'x',
        adapter: 'x',
        seed: 1,
        path: '0',
        schedule: [],
        violations: [],
        case: { version: 1, config: {}, tools: [{ name: 7 }], pre: [], guards: [], wrappers: [], post: [], observers: [], calls: [] },
      },
    ))
    const run = await toolreg('replay', file)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toMatch(/case\/tools\/0/)
  })
})

describe.concurrent('toolreg smoke and help', () => {
  it('smoke passes the reference', async () => {
    const run = await toolreg('smoke')
    expect(run.exitCode).toBe(0)
  })

  it('check-tool: an honest tool exits 0, a lying one exits 1 naming the refuted claim', async () => {
    const honest = await toolreg('check-tool', 'fixtures/tools/honest/atomic-counter.ts', '--runs', '20', '--seed', '3')
    expect(honest.exitCode).toBe(0)
    const lying = await toolreg('check-tool', 'fixtures/tools/lying/racy-counter.ts', '--runs', '20', '--seed', '3', '--stress')
    expect(lying.exitCode).toBe(1)
    expect(lying.stdout).toMatch(/CLM-2/)
  })

  it('help lists the commands', async () => {
    const run = await toolreg('--help')
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toMatch(/certify/)
    expect(run.stdout).toMatch(/replay/)
    expect(run.stdout).toMatch(/check-tool/)
  })
})

describe('--help after any command prints the usage (exit 0), called in process', () => {
  it.each(['certify', 'merge', 'replay', 'check-tool', 'smoke', 'clauses', 'peers'])('%s --help', async (command) => {
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      expect((await toolregInProcess(command, '--help')).exitCode).toBe(0)
      expect(logged.mock.calls.flat().join('\n')).toMatch(/Usage:/)
    } finally {
      logged.mockRestore()
    }
  })
})
