/** A trial whose call stalled neither confirms nor refutes a claim: it is skipped and counted (Stalls). */
import type { Stalls } from '../settle-within.js'
import { CallStalled } from './server-session.js'

export async function unlessStalled<T>(stalls: Stalls, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof CallStalled) stalls.skip(error.message)
    throw error
  }
}
