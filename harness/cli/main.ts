/** The `toolreg` command line: parse, dispatch, and map every error to its exit code. */
import { parseArgs } from 'node:util'
import { CLAUSES } from '../clauses.js'
import { USAGE, UsageError } from './usage.js'

/** Errors that are the user's input, not toolreg's: one line, exit 2. */
const INPUT_ERRORS = new Set(['AdapterLoadError', 'InvalidCounterexample', 'InvalidReport'])

export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        adapter: { type: 'string' },
        runs: { type: 'string' },
        seed: { type: 'string' },
        clause: { type: 'string', multiple: true },
        json: { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        html: { type: 'string' },
        badge: { type: 'string' },
        strict: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    const [command, ...rest] = positionals
    if (values.help || command === undefined || command === 'help') {
      console.log(USAGE)
      return command === undefined && !values.help ? 2 : 0
    }
    switch (command) {
      case 'certify':
        return await (await import('./certify.js')).certify({
          ...(values.adapter ? { adapter: values.adapter } : {}),
          ...(values.runs !== undefined ? { runs: positiveInt('--runs', values.runs) } : {}),
          ...(values.seed !== undefined ? { seed: integer('--seed', values.seed) } : {}),
          clauses: values.clause ?? [],
          ...(values.json ? { json: values.json } : {}),
          ...(values.junit ? { junit: values.junit } : {}),
          ...(values.markdown ? { markdown: values.markdown } : {}),
          ...(values.html ? { html: values.html } : {}),
          ...(values.badge ? { badge: values.badge } : {}),
          strict: values.strict === true,
        })
      case 'replay':
        return await (await import('./replay.js')).replay(rest[0], values.adapter)
      case 'smoke':
        return await (await import('./smoke.js')).smoke(values.adapter)
      case 'clauses':
        for (const c of CLAUSES) console.log(`${c.id.padEnd(7)} ${c.level.padEnd(5)} ${c.profile.padEnd(8)} ${c.rule}`)
        return 0
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      console.error(`toolreg: ${(error as Error).message}\n\n${USAGE}`)
      return 2
    }
    if (error instanceof Error && INPUT_ERRORS.has(error.constructor.name)) {
      console.error(`toolreg: ${error.message}`)
      return 2
    }
    console.error(`toolreg: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 2
  }
}

function positiveInt(flag: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} needs a positive integer, got "${raw}"`)
  return n
}

function integer(flag: string, raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n)) throw new UsageError(`${flag} needs an integer, got "${raw}"`)
  return n
}
