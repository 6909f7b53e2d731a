/** Regenerates harness/contract/clauses.ts from harness/contract/SPEC.md: `npx tsx harness/contract/catalogue/generate.ts`. */
import { readFileSync, writeFileSync } from 'node:fs'
import type { Clause } from '../clauses.js'
import { parseSpecClauses } from './parse-spec.js'

const here = (path: string) => new URL(path, import.meta.url).pathname
const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const PIECE = 100

/** The rule cut after spaces into pieces of about PIECE characters; joined, they are the rule again. */
function pieces(rule: string): string[] {
  const out: string[] = []
  let rest = rule
  while (rest.length > PIECE) {
    const cut = rest.lastIndexOf(' ', PIECE)
    const at = cut > 0 ? cut + 1 : rest.length
    out.push(rest.slice(0, at))
    rest = rest.slice(at)
  }
  if (rest.length > 0) out.push(rest)
  return out
}

function row(c: Clause): string {
  const head = `id: ${quote(c.id)}, level: ${quote(c.level)}, profile: ${quote(c.profile)}`
  const oneLine = `  { ${head}, rule: ${quote(c.rule)} },`
  if (oneLine.length <= 160) return oneLine
  const rule = pieces(c.rule).map(quote).join(' +\n      ')
  return `  {\n    ${head},\n    rule:\n      ${rule},\n  },`
}

const clauses = parseSpecClauses(readFileSync(here('../SPEC.md'), 'utf8'))
const rows = clauses.map(row)
const source = readFileSync(here('../clauses.ts'), 'utf8')
const start = source.indexOf('export const CLAUSES: readonly Clause[] = [')
const end = source.indexOf('\n]\n', start)
if (start < 0 || end < 0) throw new Error('harness/contract/clauses.ts: the CLAUSES table was not found')
const head = source.slice(0, start) + 'export const CLAUSES: readonly Clause[] = [\n'
writeFileSync(here('../clauses.ts'), `${head}${rows.join('\n')}${source.slice(end)}`)
console.log(`harness/contract/clauses.ts: ${clauses.length} clauses`)
