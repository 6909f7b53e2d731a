/** Under the matrix, each failed clause explained: its story and marked timeline, from its verdict's counterexample. */
import type { CertifyReport } from '../report/build-report.js'
import type { Counterexamples } from '../report/counterexamples.js'
import { explainFailure } from '../report/explain.js'
import { isScenarioCaseOf } from '../report/scenario-case.js'
import type { Trace } from '../scenario/trace.js'

/** `scenarioClauses`: the clauses whose properties run scenarios. */
export function explainFailures(report: CertifyReport, counterexamples: Counterexamples, scenarioClauses: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const clause of report.clauses) {
    const ce = clause.status === 'failed' ? counterexamples.get(clause.id) : undefined
    if (!ce) continue
    out.push(
      explainFailure({
        clause: ce.clause,
        violations: ce.violations,
        testCase: ce.case,
        isScenario: isScenarioCaseOf(scenarioClauses.has(ce.clause), ce.case),
        story: ce.story,
        trace: ce.trace as Trace | undefined,
        original: ce.original?.violations,
        seed: ce.seed,
        path: ce.path,
        ...(ce.numRuns !== undefined ? { numRuns: ce.numRuns } : {}),
        ...(clause.counterexample ? { file: clause.counterexample } : {}),
      }),
    )
  }
  return out
}
