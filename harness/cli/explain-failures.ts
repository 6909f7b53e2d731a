/** Under the matrix, each failed clause explained: its story and marked timeline, from its file. */
import type { CertifyReport } from '../report/build-report.js'
import { explainFailure } from '../report/explain.js'
import { readCounterexample } from '../runner/counterexample.js'
import { SCENARIO_PROPERTIES } from '../runner/scenario-property.js'
import type { Trace } from '../scenario/trace.js'
import { PROPERTIES } from '../../suites/index.js'

export const isScenarioClause = (clause: string) => PROPERTIES.some((p) => p.id === clause && SCENARIO_PROPERTIES.has(p))

/** A clause's case is a scenario unless it is one of its direct checks (`{ direct }`, with-direct.ts). */
export const isScenarioCase = (clause: string, testCase: unknown) =>
  isScenarioClause(clause) && !(typeof testCase === 'object' && testCase !== null && 'direct' in testCase && !('version' in testCase))

export async function explainFailures(report: CertifyReport): Promise<string[]> {
  const out: string[] = []
  for (const clause of report.clauses) {
    if (clause.status !== 'failed' || !clause.counterexample) continue
    try {
      const ce = await readCounterexample(clause.counterexample, isScenarioCase)
      out.push(
        explainFailure({
          clause: ce.clause,
          violations: ce.violations,
          testCase: ce.case,
          isScenario: isScenarioCase(ce.clause, ce.case),
          trace: ce.trace as Trace | undefined,
          original: ce.original?.violations,
          seed: ce.seed,
          path: ce.path,
          ...(ce.numRuns !== undefined ? { numRuns: ce.numRuns } : {}),
          file: clause.counterexample,
        }),
      )
    } catch {
      // A counterexample that cannot be read back is already named in the matrix line.
    }
  }
  return out
}
