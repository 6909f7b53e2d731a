// The order of test files that ends a 2-core run soonest: the longest first. vitest's own order
// takes the durations it cached from the last run and, on a fresh clone (no cache), falls back to
// file size, which started a 4-line file that runs 20 s of variants last (130 s against 112 s).
// Here a file weighs its cached duration, else the hint below.
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Seconds the slowest files took in a `.ci/run` on 2 cores (its "slowest test files" lines). */
export const SECONDS_HINTS: Readonly<Record<string, number>> = {
  'tests/hostile.test.ts': 30,
  'tests/child-supervision.test.ts': 24,
  'tests/protocol-hostile.test.ts': 24,
  'tests/pack-install.test.ts': 20,
  'tests/check-mcp.test.ts': 20,
  'tests/peers.test.ts': 18,
  'tests/containment.test.ts': 15,
  'tests/reports.test.ts': 15,
  'tests/variant-matrix-1.test.ts': 14,
  'tests/variant-matrix-2.test.ts': 14,
  'tests/variant-matrix-3.test.ts': 14,
  'tests/cli.test.ts': 14,
  'tests/protocol.test.ts': 12,
  'tests/report-sigkill.test.ts': 8,
  'tests/starved-certify.test.ts': 8,
  'reference-impl/test/sandbox-lifetimes.test.ts': 7,
  'reference-impl/test/sandbox-limits.test.ts': 7,
  'tests/check-tool.test.ts': 7,
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const weight = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId)
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)
      return cached?.duration ?? (SECONDS_HINTS[file] ?? 0) * 1000
    }
    // As vitest's own order: one project after the other, an isolated one first.
    const project = (spec: TestSpecification) => `${spec.project.config.isolate ? 0 : 1}${spec.project.name}`
    return [...files].sort((a, b) => project(a).localeCompare(project(b)) || weight(b) - weight(a))
  }
}
