/** The progress line on a terminal while certify runs: clauses judged, failures, elapsed time, the last clause. */
import type { Verdict } from '../engine/verdict.js'

export class ProgressLine {
  private done = 0
  private failures = 0
  private readonly started = Date.now()

  constructor(
    private readonly total: number,
    private readonly enabled = process.stderr.isTTY === true,
  ) {}

  readonly judged = (verdict: Verdict): void => {
    this.done++
    if (verdict.status === 'failed') this.failures++
    if (!this.enabled) return
    const elapsed = ((Date.now() - this.started) / 1000).toFixed(1)
    process.stderr.write(`\r\x1b[2Kcertify: ${this.done}/${this.total} properties, ${this.failures} failed, ${elapsed}s — ${verdict.clause}`)
  }

  clear(): void {
    if (this.enabled) process.stderr.write('\r\x1b[2K')
  }
}
