/**
 * A vitest reporter that keeps each property's verdict (from the test's meta) for the report,
 * and shows a progress line on a TTY.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import type { PropertyMeta } from './property-meta.js'

export interface CollectedResult extends PropertyMeta {
  title: string
  /** vitest's own error text, for failures the property did not describe (a crash, a timeout). */
  errorText?: string
}

export class CollectingReporter implements Reporter {
  readonly results: CollectedResult[] = []
  unhandled: string[] = []
  private done = 0
  private failures = 0
  private readonly started = Date.now()

  constructor(
    private readonly total: number,
    private readonly progress: boolean,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    this.done++
    const state = testCase.result().state
    if (state === 'failed') this.failures++
    if (this.progress) {
      const elapsed = ((Date.now() - this.started) / 1000).toFixed(1)
      process.stderr.write(`\r\x1b[2Kcertify: ${this.done}/${this.total} properties, ${this.failures} failed, ${elapsed}s — ${testCase.name.split(' ')[0]}`)
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    if (this.progress) process.stderr.write('\r\x1b[2K')
    this.unhandled = unhandledErrors.map((e) => e.message ?? String(e))
    for (const module of testModules) {
      for (const testCase of module.children.allTests()) {
        const meta = testCase.meta().toolreg
        const result = testCase.result()
        // A test that never finished (its worker was killed): no verdict; certify re-runs it.
        if (!meta && (result.state === 'pending' || result.state === 'skipped')) continue
        const errorText = result.errors?.map((e) => e.message).join('\n')
        const clause = meta?.clause ?? testCase.name.split(' ')[0] ?? '?'
        this.results.push({
          ...(meta ?? { clause, level: 'R', profile: 'core', status: result.state === 'passed' ? 'passed' : 'error' }),
          title: testCase.name,
          ...(errorText ? { errorText } : {}),
        })
      }
      const moduleErrors = module.errors()
      if (moduleErrors.length > 0) this.unhandled.push(...moduleErrors.map((e) => e.message))
    }
  }
}
