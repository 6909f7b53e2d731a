/** Real time, for the properties that run a registry's own timers (the timeout policy): no scheduler owns them. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Settles when `signal` aborts. */
export const abortOf = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
