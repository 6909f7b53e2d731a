/** Regenerates harness/contract/clauses.ts from harness/contract/SPEC.md: `npx tsx harness/contract/catalogue/generate.ts`. */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseSpecClauses } from './parse-spec.js'

const here = (path: string) => new URL(path, import.meta.url).pathname
const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const clauses = parseSpecClauses(readFileSync(here('../SPEC.md'), 'utf8'))
const rows = clauses.map((c) => `  { id: ${quote(c.id)}, level: ${quote(c.level)}, profile: ${quote(c.profile)}, rule: ${quote(c.rule)} },`)
const source = readFileSync(here('../clauses.ts'), 'utf8')
const start = source.indexOf('export const CLAUSES: readonly Clause[] = [')
const end = source.indexOf('\n]\n', start)
if (start < 0 || end < 0) throw new Error('harness/contract/clauses.ts: the CLAUSES table was not found')
const head = source.slice(0, start) + 'export const CLAUSES: readonly Clause[] = [\n'
writeFileSync(here('../clauses.ts'), `${head}${rows.join('\n')}${source.slice(end)}`)
console.log(`harness/contract/clauses.ts: ${clauses.length} clauses`)
