/**
 * The stage entered last (by the interpreter, or by a custom property asking for the projection),
 * told synchronously to whoever listens (the watchdog,
 * which must know it even when the implementation then blocks the event loop for good).
 */
import type { WatchedStage } from './trace.js'

export type StageListener = (stage: string) => void

let listener: StageListener | undefined

export function listenToStages(next: StageListener | undefined): void {
  listener = next
}

export function stageEntered(stage: WatchedStage, index: number, call: string): void {
  listener?.(`${stage}#${index} of ${call}`)
}
