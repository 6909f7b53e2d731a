/** The `toolreg` command line: parse, dispatch, and map every error to its exit code. */
import { parseArgs } from 'node:util'
import { CLAUSES } from '../contract/clauses.js'
import { parseShard } from '../engine/shard.js'
import { writableTarget } from '../report/write-file.js'
import { USAGE, UsageError } from './usage.js'

/** Errors that are the user's input, not toolreg's: one line, exit 2. */
const INPUT_ERRORS = new Set(['AdapterLoadError', 'InvalidCounterexample', 'InvalidReport', 'InvalidBaseline', 'MergeError', 'ReportWriteError'])

export async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === 'peers' && !argv.some((a) => a === '-h' || a === '--help')) return await (await import('./peers.js')).peersCommand(argv.slice(1))
    if (argv[0] === 'check-mcp' && !argv.slice(1, argv.includes('--') ? argv.indexOf('--') : undefined).some((a) => a === '-h' || a === '--help')) {
      return await (await import('./check-mcp.js')).checkMcpCommand(argv.slice(1))
    }
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        adapter: { type: 'string' },
        command: { type: 'string' },
        'validate-protocol': { type: 'boolean' },
        runs: { type: 'string' },
        seed: { type: 'string' },
        clause: { type: 'string', multiple: true },
        clauses: { type: 'string', multiple: true },
        workers: { type: 'string' },
        'time-budget': { type: 'string' },
        'max-heap': { type: 'string' },
        json: { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        html: { type: 'string' },
        badge: { type: 'string' },
        baseline: { type: 'string' },
        shard: { type: 'string' },
        corpus: { type: 'string' },
        'no-corpus': { type: 'boolean' },
        duration: { type: 'string' },
        coverage: { type: 'boolean' },
        'coverage-include': { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        'case-timeout': { type: 'string' },
        export: { type: 'string' },
        replay: { type: 'string' },
        'time-limit': { type: 'string' },
        stress: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    const [command, ...rest] = positionals
    // A report path that cannot be written fails now, not after a long run.
    for (const file of Object.values(reportTargets(values))) await writableTarget(file)
    if (values.help || command === undefined || command === 'help') {
      console.log(USAGE)
      return command === undefined && !values.help ? 2 : 0
    }
    const takes = ARGUMENTS_TAKEN[command]
    if (takes !== undefined && rest.length > takes) throw new UsageError(strayArguments(command, rest.slice(takes), values.command))
    const foreign = Object.keys(values).filter((option) => OPTIONS_OF[command] !== undefined && !OPTIONS_OF[command].includes(option))
    if (foreign.length > 0) throw new UsageError(`${command} does not take ${foreign.map((option) => `--${option}`).join(', ')}`)
    switch (command) {
      case 'certify':
        return await (await import('./certify.js')).certify({
          ...(values.adapter ? { adapter: values.adapter } : {}),
          ...(values.command ? { command: values.command } : {}),
          ...(values['validate-protocol'] ? { validateProtocol: true } : {}),
          ...(values.runs !== undefined ? { runs: positiveInt('--runs', values.runs) } : {}),
          ...(values.seed !== undefined ? { seed: integer('--seed', values.seed) } : {}),
          clauses: [...(values.clause ?? []), ...(values.clauses ?? []).flatMap((list) => list.split(',')).map((id) => id.trim()).filter(Boolean)],
          ...reportTargets(values),
          ...(values.baseline ? { baseline: values.baseline } : {}),
          ...(values.shard !== undefined ? { shard: shard(values.shard) } : {}),
          ...(values['no-corpus'] ? { corpus: false as const } : values.corpus ? { corpus: values.corpus } : {}),
          ...(values.duration !== undefined ? { durationMs: duration(values.duration) } : {}),
          ...(values.coverage || values['coverage-include'] ? { coverage: values['coverage-include'] ?? [] } : {}),
          strict: values.strict === true,
          ...(values['case-timeout'] !== undefined ? { caseTimeoutMs: positiveDuration(values['case-timeout'], '--case-timeout') } : {}),
          ...(values['time-budget'] !== undefined ? { timeBudgetMs: positiveDuration(values['time-budget'], '--time-budget') } : {}),
          ...(values.workers !== undefined ? { workers: positiveInt('--workers', values.workers) } : {}),
          ...(values['max-heap'] !== undefined ? { maxOldSpaceMb: positiveInt('--max-heap', values['max-heap']) } : {}),
        })
      case 'merge':
        return await (await import('./merge.js')).merge(rest, reportTargets(values), values.strict === true)
      case 'replay':
        return await (await import('./replay.js')).replay(rest[0], { adapter: values.adapter, command: values.command })
      case 'check-tool':
        if (rest[0] === undefined) throw new UsageError('check-tool needs a tool module: toolreg check-tool <module>')
        return await (await import('./check-tool.js')).checkTool({
          module: rest[0],
          ...(values.export ? { exportName: values.export } : {}),
          ...(values.runs !== undefined ? { runs: positiveInt('--runs', values.runs) } : {}),
          ...(values.seed !== undefined ? { seed: integer('--seed', values.seed) } : {}),
          ...(values.replay ? { replay: values.replay } : {}),
          ...(values['time-limit'] !== undefined ? { timeLimitMs: duration(values['time-limit']) } : {}),
          ...(values.stress ? { stress: true } : {}),
          ...reportTargets(values),
        })
      case 'smoke':
        return await (await import('./smoke.js')).smoke(
          values.adapter,
          values.command ? { command: values.command, validateProtocol: values['validate-protocol'] === true } : undefined,
        )
      case 'clauses':
        for (const c of CLAUSES) console.log(`${c.id.padEnd(7)} ${c.level.padEnd(5)} ${c.profile.padEnd(8)} ${c.rule}`)
        return 0
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      console.error(`toolreg: ${(error as Error).message}\nRun \`toolreg --help\` for usage.`)
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

const REPORT_OPTIONS = ['json', 'junit', 'markdown', 'html', 'badge']
/** The options each command reads (--help aside): any other one would be ignored. */
const OPTIONS_OF: Readonly<Record<string, readonly string[]>> = {
  certify: [
    'adapter', 'command', 'validate-protocol', 'runs', 'seed', 'clause', 'clauses', 'workers', 'time-budget', 'max-heap', ...REPORT_OPTIONS,
    'baseline', 'shard', 'corpus', 'no-corpus', 'duration', 'coverage', 'coverage-include', 'strict', 'case-timeout', 'help',
  ],
  merge: [...REPORT_OPTIONS, 'strict', 'help'],
  replay: ['adapter', 'command', 'help'],
  'check-tool': ['export', 'runs', 'seed', 'replay', 'time-limit', 'stress', 'json', 'junit', 'markdown', 'help'],
  smoke: ['adapter', 'command', 'validate-protocol', 'help'],
  clauses: ['help'],
}

/** How many arguments besides options each command takes (merge: any number of shard reports). */
const ARGUMENTS_TAKEN: Readonly<Record<string, number>> = { certify: 0, smoke: 0, clauses: 0, replay: 1, 'check-tool': 1 }

/**
 * Arguments a command would otherwise ignore: most often a server command given to --command
 * without quotes, whose first word alone would be started as the server.
 */
function strayArguments(command: string, stray: readonly string[], server: string | undefined): string {
  const quoted = server === undefined ? '' : `; a server command with arguments goes in quotes: --command "${[server, ...stray].join(' ')}"`
  return `${command} does not take "${stray.join(' ')}"${quoted}`
}

function reportTargets(values: Record<string, unknown>) {
  const targets: Record<string, string> = {}
  for (const key of REPORT_OPTIONS) if (typeof values[key] === 'string') targets[key] = values[key] as string
  return targets
}

function shard(raw: string) {
  const parsed = parseShard(raw)
  if (!parsed) throw new UsageError(`--shard needs i/n with 1 <= i <= n, got "${raw}"`)
  return parsed
}

/** "90s", "10m", "1h" or plain seconds. */
function duration(raw: string, flag = '--duration'): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(raw)
  if (!match) throw new UsageError(`${flag} needs a time like 90s, 10m or 1h, got "${raw}"`)
  return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h']
}

function positiveDuration(raw: string, flag: string): number {
  const ms = duration(raw, flag)
  if (ms <= 0) throw new UsageError(`${flag} needs a time above zero, got "${raw}"`)
  return ms
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
