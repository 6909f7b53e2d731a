/**
 * A scheduler that replays a recorded release order, then releases whatever is left in FIFO
 * order. fast-check's `schedulerFor` stops at the end of its ordering, so a schedule replayed on
 * another implementation (or after a fix) could wait forever; this one cannot. Its waitFor paces
 * releases the way fast-check's does (up to 50 microtask ticks between releases, restarted when a
 * task is scheduled), so on the same implementation a replay takes the recorded interleaving.
 * It offers the part of fast-check's Scheduler the harness uses: schedule, waitFor, report.
 */
import type fc from 'fast-check'

interface Task {
  id: number
  trigger: () => Promise<unknown>
}

export class ReplayScheduler {
  private readonly pending: Task[] = []
  private readonly released: number[] = []
  private scheduled = 0
  private cursor = 0
  private onScheduled: (() => void) | undefined

  constructor(private readonly ordering: readonly number[]) {}

  schedule<T>(task: Promise<T>): Promise<T> {
    const id = ++this.scheduled
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const result = gate.then(() => task)
    this.pending.push({ id, trigger: () => (open(), result.catch(() => undefined)) })
    this.onScheduled?.()
    return result
  }

  async waitFor<T>(work: Promise<T>): Promise<T> {
    let done = false
    let ticks = 0
    let wake: (() => void) | undefined
    work.then(
      () => ((done = true), wake?.()),
      () => ((done = true), wake?.()),
    )
    this.onScheduled = () => {
      ticks = 51
      wake?.()
    }
    try {
      while (!done) {
        for (ticks = 50; !done && ticks > 0; --ticks) await Promise.resolve()
        if (done) break
        const next = this.pick()
        if (next) {
          this.released.push(next.id)
          await next.trigger()
        } else {
          await new Promise<void>((resolve) => (wake = resolve))
          wake = undefined
        }
      }
    } finally {
      this.onScheduled = undefined
    }
    return work
  }

  report(): { taskId: number; status: 'resolved' }[] {
    return this.released.map((taskId) => ({ taskId, status: 'resolved' }))
  }

  /** The next task of the recorded order if it is waiting, else the oldest waiting task. */
  private pick(): Task | undefined {
    while (this.cursor < this.ordering.length) {
      const wanted = this.ordering[this.cursor]!
      const index = this.pending.findIndex((t) => t.id === wanted)
      if (index === -1 && wanted > this.scheduled && this.pending.length === 0) return undefined
      this.cursor++
      if (index !== -1) return this.pending.splice(index, 1)[0]
    }
    return this.pending.shift()
  }
}

/** The replay scheduler, typed as fast-check's for the code that only schedules and waits. */
export const replayScheduler = (ordering: readonly number[]): fc.Scheduler => new ReplayScheduler(ordering) as unknown as fc.Scheduler
