// The order of test files that ends a 2-core run soonest. Two rules:
// - the longest first, so that no long file starts last;
// - a file that mostly waits (on timers, on a child's own time) right after a file that keeps
//   both cores busy, so that it runs beside it: run beside each other, waiting files left a core
//   idle for some 15 s.
// The order is the same on every run, a fresh clone's included: vitest's cached durations say how
// long a file took beside whatever ran with it last time (a single-file run too), and following
// them put different files side by side on each run.
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Seconds the slowest files take in a full run on 2 cores, and whether they mostly wait (their
 * processes used under 60% of a core while they ran): measured at a7a8f8d.
 */
export const FILES: Readonly<Record<string, { seconds: number; waits?: true }>> = {
  'tests/pack-install.test.ts': { seconds: 24 },
  'tests/hostile.test.ts': { seconds: 20 },
  'tests/protocol-hostile.test.ts': { seconds: 17 },
  'tests/child-supervision.test.ts': { seconds: 16 },
  'tests/peers.test.ts': { seconds: 16 },
  'tests/containment.test.ts': { seconds: 14 },
  'tests/reports.test.ts': { seconds: 14 },
  'tests/protocol.test.ts': { seconds: 10 },
  'tests/starved-certify.test.ts': { seconds: 10 },
  'tests/variant-matrix-1.test.ts': { seconds: 6 },
  'tests/variant-matrix-2.test.ts': { seconds: 5 },
  'tests/variant-matrix-3.test.ts': { seconds: 5 },
  'tests/report-sigkill.test.ts': { seconds: 3 },
  'tests/replay.test.ts': { seconds: 3 },
  'tests/html-report.test.ts': { seconds: 3 },
  'tests/check-mcp.test.ts': { seconds: 24, waits: true },
  'tests/check-tool.test.ts': { seconds: 15, waits: true },
  'tests/cli.test.ts': { seconds: 10, waits: true },
  'reference-impl/test/sandbox-limits.test.ts': { seconds: 10, waits: true },
  'tests/own-time.test.ts': { seconds: 8, waits: true },
  'reference-impl/test/sandbox-lifetimes.test.ts': { seconds: 7, waits: true },
  'reference-impl/test/sandbox-property.test.ts': { seconds: 5, waits: true },
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const known = (spec: TestSpecification) => FILES[relative(root, spec.moduleId)]
    const longestFirst = (list: TestSpecification[]) => list.sort((a, b) => (known(b)?.seconds ?? 0) - (known(a)?.seconds ?? 0))
    // As vitest's own order: one project after the other, an isolated one first.
    const project = (spec: TestSpecification) => `${spec.project.config.isolate ? 0 : 1}${spec.project.name}`
    return [...new Set(files.map(project))].sort().flatMap((key) => {
      const specs = files.filter((spec) => project(spec) === key)
      const busy = longestFirst(specs.filter((spec) => !known(spec)?.waits))
      const waiting = longestFirst(specs.filter((spec) => known(spec)?.waits))
      return busy.flatMap((spec, i) => (i < waiting.length ? [spec, waiting[i]!] : [spec])).concat(waiting.slice(busy.length))
    })
  }
}
