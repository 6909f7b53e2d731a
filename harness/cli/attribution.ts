/**
 * `npm run attribution [-- --runs N --seed S --mutant NAME --resume]`: certifies every mutant of
 * fixtures/mutants on every clause that applies to it, writes reports/attribution.json (after
 * each mutant, so a cut-off run keeps what it measured) and the table in the "Attribution matrix"
 * section of fixtures/mutants/ATTRIBUTION.md. `--mutant` measures the named mutants again and keeps
 * every other row of the last run, as `--resume` keeps them all. Exit 1 when a mutant fails a
 * clause that is neither a target nor a declared consequence.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { attributeMutant, attributionMarkdown, summarise, type AttributionMatrix, type AttributionRow } from '../mutation/attribution.js'
import { loadMutants, MUTANTS_DIR } from '../mutation/kill.js'

const JSON_FILE = 'reports/attribution.json'
const MD_FILE = join(MUTANTS_DIR, 'ATTRIBUTION.md')
const SECTION = '## Attribution matrix'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string', default: '20261130' },
    mutant: { type: 'string', multiple: true },
    resume: { type: 'boolean' },
  },
})
const options = { runs: Number(values.runs), seed: Number(values.seed) }
const all = await loadMutants()
const named = Boolean(values.mutant?.length)
const mutants = all.filter((m) => !named || values.mutant!.includes(m.name))

const done = new Map<string, AttributionRow>()
if (values.resume || named) {
  try {
    const previous = JSON.parse(await readFile(JSON_FILE, 'utf8')) as AttributionMatrix
    const present = new Set(all.map((m) => m.name))
    const kept = previous.runs === options.runs && previous.seed === options.seed ? previous.rows : []
    for (const row of kept) if (present.has(row.mutant)) done.set(row.mutant, row)
  } catch {
    // nothing to keep
  }
}

await mkdir('reports', { recursive: true })
const save = async (): Promise<AttributionMatrix> => {
  const matrix = summarise([...done.values()].sort((a, b) => a.mutant.localeCompare(b.mutant)), options)
  await writeFile(JSON_FILE, `${JSON.stringify(matrix, null, 2)}\n`)
  return matrix
}

for (const mutant of mutants) {
  const previous = done.get(mutant.name)
  // A named mutant is measured again; a resumed one only where its targets changed.
  if (!named && previous && previous.targets.join() === mutant.targets.join()) {
    done.set(mutant.name, refreshed(previous, mutant.consequences ?? []))
    continue
  }
  const row = await attributeMutant(mutant, options)
  done.set(mutant.name, row)
  await save()
  const extra = row.unexplained.length ? `  ALSO ${row.unexplained.join(' ')}` : ''
  console.log(`${row.mutant.padEnd(40)} ${row.failed.join(' ')}${extra}  (${row.ms} ms)`)
}

const matrix = await save()
const table = attributionMarkdown(matrix)
await updateSection(MD_FILE, table)
console.log(`\n${table}`)
process.exitCode = matrix.rows.some((r) => r.unexplained.length > 0) ? 1 : 0

/** A resumed row with the mutant's current consequences (headers may have been updated since). */
function refreshed(row: AttributionRow, consequences: string[]): AttributionRow {
  const explained = new Set([...row.targets, ...consequences])
  return { ...row, consequences, unexplained: row.failed.filter((c) => !explained.has(c)) }
}

async function updateSection(file: string, body: string): Promise<void> {
  let text = ''
  try {
    text = await readFile(file, 'utf8')
  } catch {
    text = '# Attribution of the mutant corpus\n\n'
  }
  const start = text.indexOf(SECTION)
  const section = `${SECTION}\n\n<!-- written by \`npm run attribution\`; edit the text outside this section -->\n\n${body}`
  if (start < 0) return writeFile(file, `${text.trimEnd()}\n\n${section}`)
  const next = text.indexOf('\n## ', start + SECTION.length)
  await writeFile(file, `${text.slice(0, start)}${section}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`)
}
