/**
 * One clause's verdict, the one value that travels from the property check (in the child that
 * runs the implementation) to the supervisor and into every report format. A failure carries
 * its counterexample inline; the supervisor saves it to disk and notes the file, and no report
 * step reads it back.
 */
import type { CounterexampleFile } from '../store/counterexample.js'
import type { BlockedRecord, EscapeKind, ExitRecord, WhereRecord } from '../watchdog/record.js'

export type VerdictStatus = 'passed' | 'failed' | 'error' | 'untested'

export interface PlainViolation {
  clause: string
  detail: string
}

/** How the child process ended while it held this clause (killed by the supervisor, or on its own). */
export interface ChildEnd {
  exitCode?: number | null
  signal?: string | null
  /** Why the supervisor killed it, when it did. */
  killed?: 'blocked' | 'deadline' | 'budget'
  /** V8 reported an exhausted heap (the child's --max-old-space-size). */
  outOfMemory?: true
}

export interface Verdict {
  clause: string
  level: string
  profile: string
  title: string
  status: VerdictStatus
  /** Cases the property ran (passed), or ran before its first failure. */
  numRuns?: number
  violations?: PlainViolation[]
  /** The case first found, before shrinking kept the same check: its violations. */
  originalViolations?: PlainViolation[]
  /** The failing case itself: shrunk case, schedule, violations, trace, and the original case. */
  counterexample?: CounterexampleFile
  /** Where the supervisor saved `counterexample`. */
  counterexampleFile?: string
  /** A harness or adapter error (status 'error'). */
  error?: string
  /** Why a clause has no verdict (status 'untested'). */
  untested?: string
  /** The stage the interpreter entered last, when the clause ended in something the check could not catch. */
  stage?: string
  ended?: ChildEnd
  /** What escaped the implementation's calls and failed the clause (an uncaught exception, changed globals…). */
  escape?: EscapeKind
}

/** What the supervisor knows of a property without importing it: the child describes each one. */
export interface PropertyInfo {
  id: string
  level: string
  profile: string
  title: string
  /** Its cases are scenarios (stories and timelines apply). */
  scenario: boolean
  /** A cap on generated cases, for properties that must spend real time. */
  maxRuns?: number
}

export const infoVerdict = (p: PropertyInfo): Pick<Verdict, 'clause' | 'level' | 'profile' | 'title'> => ({
  clause: p.id,
  level: p.level,
  profile: p.profile,
  title: p.title,
})

export const plainViolation = (v: { clause: string; detail: string }): PlainViolation => ({ clause: v.clause, detail: v.detail })

/** How a child ended, and what its watchdog files said about where it was. */
export interface ChildDeath {
  ended: ChildEnd
  /** How long the child had been silent when it ended. */
  silentMs: number
  /** How long its last case had been running. */
  caseMs?: number
  where?: WhereRecord
  blocked?: BlockedRecord
  exit?: ExitRecord
}
