/**
 * Merging shard reports into one report with the same schema: each clause takes its verdict from
 * the shard that ran it. Reports of different adapters, seeds or depths do not merge.
 */
import { OTHER_SHARD, type CertifyReport, type ClauseStatus, type ClauseVerdict } from './build-report.js'

export class MergeError extends Error {}

const RANK: Record<ClauseStatus, number> = { failed: 3, passed: 2, untested: 1, 'not-applicable': 0 }

export interface MergeOptions {
  /** The rounds of a campaign (same adapter, fresh seeds): the worst verdict wins. */
  acrossSeeds?: boolean
  /** Shard reports, read from these files: every shard of one split, each once (named in errors). */
  files?: readonly string[]
}

export function mergeReports(reports: readonly CertifyReport[], options: MergeOptions = {}): CertifyReport {
  const [first] = reports
  if (!first) throw new MergeError('merge needs at least one report')
  if (options.files) checkShards(reports, options.files)
  for (const r of reports) {
    const sameSeed = options.acrossSeeds || r.seed === first.seed
    const same = r.adapter.name === first.adapter.name && sameSeed && r.runs === first.runs && r.clauses.length === first.clauses.length
    if (!same) throw new MergeError(
      `cannot merge: reports differ in adapter, seed, runs or clause list (${first.adapter.name} seed ${first.seed} vs ${r.adapter.name} seed ${r.seed})`,
    )
  }
  const clauses = first.clauses.map((clause, i): ClauseVerdict => {
    const candidates = reports.map((r) => r.clauses[i]!).filter((c) => !(c.status === 'untested' && c.reason?.startsWith(OTHER_SHARD)))
    if (candidates.length === 0) return clause
    return candidates.reduce((worst, c) => (RANK[c.status] > RANK[worst.status] ? c : worst))
  })
  const count = (status: ClauseStatus) => clauses.filter((c) => c.status === status).length
  const { shard: _shard, ...rest } = first
  return {
    ...rest,
    durationMs: options.acrossSeeds ? reports.reduce((sum, r) => sum + r.durationMs, 0) : Math.max(...reports.map((r) => r.durationMs)),
    clauses,
    summary: { passed: count('passed'), failed: count('failed'), untested: count('untested'), notApplicable: count('not-applicable') },
    errors: [...new Set(reports.flatMap((r) => r.errors))],
  }
}

/** Shard reports must be the n shards of one split, each once: a missing or repeated shard is named. */
function checkShards(reports: readonly CertifyReport[], files: readonly string[]): void {
  const unsharded = files.filter((_, i) => reports[i]!.shard === undefined)
  if (unsharded.length > 0) throw new MergeError(`not a shard report (no --shard): ${unsharded.join(', ')}`)
  const split = (r: CertifyReport) => r.shard!.split('/').map(Number) as [number, number]
  const count = split(reports[0]!)[1]
  const other = files.filter((_, i) => split(reports[i]!)[1] !== count)
  if (other.length > 0) throw new MergeError(`shards of another split than ${count} (the first report's): ${other.join(', ')}`)
  const seen = new Map<number, string>()
  for (const [i, report] of reports.entries()) {
    const [index] = split(report)
    const before = seen.get(index)
    if (before) throw new MergeError(`shard ${index}/${count} given twice: ${before} and ${files[i]}`)
    seen.set(index, files[i]!)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i))
  if (missing.length > 0) throw new MergeError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} of ${count}`)
}
