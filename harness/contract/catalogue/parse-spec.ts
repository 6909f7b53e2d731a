/**
 * Reads the clause bullets of SPEC.md (`- **ID LEVEL [profile]** rule`): the catalogue in
 * harness/contract/clauses.ts is generated from this and checked against it by tests/clauses.test.ts.
 */
import type { Profile } from '../adapter.js'
import type { Clause, Level } from '../clauses.js'

const BULLET = /^- \*\*([A-Z]{2,4}-[0-9]+)(?: (R|S))?(?: \[([a-z]+)\])?\*\* (.+)$/
/** A section heading tagged with a profile (`## SCP: scopes [scopes]`): its bullets' default profile. */
const SECTION = /^## .*?(?:\[([a-z]+)\])?\s*$/

export function parseSpecClauses(text: string): Clause[] {
  const out: Clause[] = []
  let sectionProfile: string | undefined
  for (const line of text.split('\n')) {
    const section = SECTION.exec(line)
    if (section) sectionProfile = section[1]
    const m = BULLET.exec(line)
    if (!m) continue
    const [, id, level, profile, rule] = m
    out.push({ id: id!, level: (level ?? 'claim') as Level, profile: (profile ?? sectionProfile ?? 'core') as Profile, rule: rule!.trim() })
  }
  return out
}
