/**
 * The CLM-2 harness: every pause() of the environment, and the start of every call, is a task of
 * the scheduler (fast-check's, or a replay of a recorded order), so the scheduler alone decides
 * how concurrent calls interleave. Each call runs in its own async context, so a pause is
 * labelled with the call that reached it. Task ids count schedule() calls from 1, as both
 * schedulers number them, so the recorded release order replays.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type fc from 'fast-check'
import type { ClaimHarness } from './types.js'

export interface ScheduledHarness {
  readonly harness: ClaimHarness
  /** Starts `run` as call `index` once the scheduler releases that call's start. */
  start<T>(index: number, run: () => Promise<T>): Promise<T>
  /** The labels of the released tasks, in release order. */
  interleaving(): string[]
  /** The ids of the released tasks, in release order: what a replay scheduler needs. */
  schedule(): number[]
}

// One store for every trial: each enabled AsyncLocalStorage taxes every later async operation.
const currentCall = new AsyncLocalStorage<number>()

export function scheduledHarness(scheduler: fc.Scheduler): ScheduledHarness {
  const released: { id: number; label: string }[] = []
  let scheduled = 0
  const task = (label: string): Promise<void> => {
    const id = ++scheduled
    return scheduler.schedule(Promise.resolve(), label).then(() => void released.push({ id, label }))
  }
  return {
    harness: {
      pause(label = 'pause') {
        const call = currentCall.getStore()
        return task(`${call === undefined ? 'setup' : `call ${call + 1}`}: ${label}`)
      },
    },
    start: (index, run) => task(`call ${index + 1}: starts`).then(() => currentCall.run(index, run)),
    interleaving: () => released.map((r) => r.label),
    schedule: () => released.map((r) => r.id),
  }
}
