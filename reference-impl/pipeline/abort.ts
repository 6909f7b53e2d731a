/** Racing a promise the registry does not own (an approval request) against the caller's signal. */
export const ABORTED: unique symbol = Symbol('aborted')

export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  pending.catch(() => undefined)
  if (signal.aborted) return Promise.resolve(ABORTED)
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => resolve(ABORTED)
    signal.addEventListener('abort', onAbort, { once: true })
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** Keeps a promise returned where none was expected from surfacing as an unhandled rejection. */
export function swallowIfThenable(value: unknown): void {
  try {
    if ((typeof value === 'object' || typeof value === 'function') && value !== null) {
      const then = (value as { then?: unknown }).then
      if (typeof then === 'function') then.call(value, undefined, () => undefined)
    }
  } catch {
    // A throwing `then` getter: nothing to swallow.
  }
}
