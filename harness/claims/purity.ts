/**
 * Purity of a synchronous function of frozen inputs (CLM-4): called several times on fresh
 * write-recording copies of the same input, it must answer the same each time, write nothing,
 * and leave observe() unchanged.
 */
import { isDeepStrictEqual } from 'node:util'
import type { JsonValue } from '../contract/spec.js'
import { jsonSnapshot } from './call-tool.js'
import { describeThrown } from '../safe/safe-read.js'
import type { WriteLog } from './recording-proxy.js'
import type { Violation } from './types.js'

export type Answer = { returned: unknown } | { threw: string }

export interface PurityCheck {
  /** Names the function in violations: 'classifier', 'render', … */
  check: string
  /** One call on fresh recording inputs that log their writes to `writes`. */
  invoke: (writes: WriteLog) => unknown
  times: number
  /** The classifier must also answer synchronously. */
  synchronous?: boolean
}

export async function purityViolations(pure: PurityCheck, observe: () => Promise<JsonValue>): Promise<Violation[]> {
  const violations: Violation[] = []
  const before = await observe()
  const writes: WriteLog = []
  const answers: Answer[] = []
  for (let i = 0; i < pure.times; i++) answers.push(answer(() => pure.invoke(writes)))
  const after = await observe()
  const { check } = pure
  for (const w of dedupe(writes)) violations.push({ check, detail: `${check} attempted ${w.operation} on ${w.path}`, path: w.path })
  if (pure.synchronous) {
    const thenable = answers.find((a) => 'returned' in a && isThenable(a.returned))
    if (thenable) violations.push({ check, detail: `${check} returned a Promise (it must answer synchronously)` })
  }
  if (answers.some((a) => !isDeepStrictEqual(a, answers[0]))) violations.push({
    check,
    detail: `${check} answered differently for the same input: ${answers.map(show).join(', ')}`,
  })
  if (!isDeepStrictEqual(before, after)) violations.push({
    check,
    detail: `${check} changed observe(): ${JSON.stringify(before)} became ${JSON.stringify(after)}`,
  })
  return violations
}

function answer(invoke: () => unknown): Answer {
  try {
    const returned = invoke()
    return { returned: isThenable(returned) ? returned : jsonSnapshot(returned) }
  } catch (error) {
    return { threw: describeThrown(error) }
  }
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

function show(a: Answer): string {
  if ('threw' in a) return `threw "${a.threw}"`
  if (isThenable(a.returned)) return 'a Promise'
  return JSON.stringify(a.returned) ?? String(a.returned)
}

function dedupe(writes: WriteLog): WriteLog {
  const seen = new Set<string>()
  return writes.filter((w) => !seen.has(`${w.operation} ${w.path}`) && seen.add(`${w.operation} ${w.path}`))
}
