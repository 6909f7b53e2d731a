/** A deviation the judge found: the clause it breaks, the call, what happened, and which check. */
export interface Violation {
  clause: string
  call?: string
  detail: string
  /** Which check of the clause broke (stable across cases); derived from clause and detail when absent. */
  check?: string
}
