/**
 * The stage the interpreter entered last, told synchronously to whoever listens (the watchdog,
 * which must know it even when the implementation then blocks the event loop for good).
 */
export type StageListener = (stage: string) => void

let listener: StageListener | undefined

export function listenToStages(next: StageListener | undefined): void {
  listener = next
}

export function stageEntered(stage: string, index: number, call: string): void {
  listener?.(`${stage}#${index} of ${call}`)
}
