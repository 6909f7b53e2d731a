/**
 * Writes every requested format from the one in-memory report (validated before any write).
 * `counterexamples`: the failures' cases as the run judged them; without them (a merge of saved
 * reports) they are read from the files the report names.
 */
import { toBadge } from './badge.js'
import type { CertifyReport } from './build-report.js'
import { loadCounterexamples, type Counterexamples } from './counterexamples.js'
import { toHtml } from './html.js'
import { toJunit } from './junit.js'
import { toMarkdown } from './markdown.js'
import { assertValidReport } from './validate-report.js'
import { writeAtomically } from './write-file.js'
import { sealed, type WrittenReport } from './report-seal.js'

export interface ReportTargets {
  json?: string
  junit?: string
  markdown?: string
  html?: string
  badge?: string
}

/** The files written, each sealed with its content's hash (report-seal.ts). */
export async function writeReports(report: CertifyReport, targets: ReportTargets, inline?: Counterexamples): Promise<WrittenReport[]> {
  assertValidReport(report)
  const counterexamples = inline ?? (targets.junit || targets.html ? await loadCounterexamples(report) : new Map())
  const written: WrittenReport[] = []
  const write = async (file: string, text: string) => void written.push(sealed(await writeAtomically(file, text), text))
  if (targets.json) await write(targets.json, `${JSON.stringify(report, null, 2)}\n`)
  if (targets.junit) await write(targets.junit, toJunit(report, counterexamples))
  if (targets.markdown) await write(targets.markdown, toMarkdown(report, counterexamples))
  if (targets.html) await write(targets.html, toHtml(report, counterexamples))
  if (targets.badge) await write(targets.badge, `${JSON.stringify(toBadge(report), null, 2)}\n`)
  return written
}
