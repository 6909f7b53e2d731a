/**
 * A violation's check identity: which check of which clause broke, stable across cases, so that
 * shrinking keeps only cases that break the same check (issue 11, item 7). Oracle checks may tag
 * their violations (`check`); for those that do not, the identity is the clause and the detail
 * with the case's particulars (numbers, quoted and JSON values, call ids, codes) taken out.
 */
import type { Violation } from '../oracle/judge.js'

export function checkOf(violation: Violation): string {
  if (violation.check) return violation.check
  return `${violation.clause}:${normaliseDetail(violation.detail)}`
}

/** How much of a detail names its check: a detail that quotes a huge value (a 10 MB meta) is cut there. */
const DETAIL_CHARS = 2000

export function normaliseDetail(detail: string): string {
  // The quoted-string pattern is an unrolled loop: a long string backtracks no deeper than its escapes.
  return detail
    .slice(0, DETAIL_CHARS)
    .replace(/"[^"\\]*(?:\\.[^"\\]*)*"/g, '…')
    .replace(/\[[^\]]*\]|\{[^}]*\}/g, '…')
    .replace(/\bc\d+(?:\/\S+)?/g, 'cN')
    .replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, 'CODE')
    .replace(/\b(?:true|false|undefined|null)\b/g, '…')
    .replace(/-?\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Whether a candidate's violations include the original failure's check. Untagged checks match
 * on their detail's template: same clause, same number of words, at most a quarter of them
 * different (a tool or agent name the shrinker changed, not another sentence).
 */
export function breaksSameCheck(original: Violation, violations: readonly Violation[]): boolean {
  const want = checkOf(original)
  return violations.some((v) => {
    const got = checkOf(v)
    if (got === want) return true
    if (original.check !== undefined || v.check !== undefined || v.clause !== original.clause) return false
    return sameTemplate(want, got)
  })
}

function sameTemplate(a: string, b: string): boolean {
  const x = a.split(' ')
  const y = b.split(' ')
  if (x.length !== y.length) return false
  const differing = x.filter((word, i) => word !== y[i]).length
  return differing <= Math.floor(x.length / 4)
}
