// Summarises Stryker JSON reports of the reference and sorts every surviving mutant into
// "equivalent" (with the reason, from tests/mutate/triage-rules.mjs) or "gap":
//   node tests/mutate/triage.mjs reports/mutation/*.json [--list]
// Prints the score table (per file and total) and, with --list, every survivor and its class.
import { readFileSync } from 'node:fs'
import { classify } from './triage-rules.mjs'

const args = process.argv.slice(2)
const list = args.includes('--list')
const files = args.filter((a) => a.endsWith('.json'))
const rows = new Map()
const survivors = []
const bump = (file, key) => {
  const row = rows.get(file) ?? { killed: 0, timeout: 0, equivalent: 0, gap: 0, noCoverage: 0, other: 0 }
  row[key]++
  rows.set(file, row)
}
// Later reports override earlier ones mutant by mutant (same file, place, mutator and replacement):
// a targeted re-run of some mutants on newer code replaces their earlier status.
const mutants = new Map()
for (const path of files) {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  for (const [file, f] of Object.entries(report.files)) {
    const lines = f.source.split('\n')
    for (const m of f.mutants) {
      const l = m.location
      mutants.set(`${file}:${l.start.line}:${l.start.column}:${l.end.line}:${l.end.column}:${m.mutatorName}:${m.replacement}`, { file, m, lines })
    }
  }
}
for (const { file, m, lines } of mutants.values()) {
  const short = file.replace(/^reference-impl\//, '')
  if (m.status === 'Killed') bump(short, 'killed')
  else if (m.status === 'Timeout') bump(short, 'timeout')
  else if (m.status === 'Survived' || m.status === 'NoCoverage') {
    const l = m.location
    const text = l.start.line === l.end.line ? lines[l.start.line - 1].slice(
      l.start.column - 1,
      l.end.column - 1,
    ) : `${lines[l.start.line - 1].slice(l.start.column - 1)} …`
    const verdict = classify({
      file: short,
      line: l.start.line,
      column: l.start.column,
      mutator: m.mutatorName,
      replacement: m.replacement,
      text,
      lineText: lines[l.start.line - 1],
      status: m.status,
    })
    survivors.push({ file: short, m, text, verdict })
    if (verdict.class === 'equivalent') bump(short, 'equivalent')
    else if (m.status === 'NoCoverage') bump(short, 'noCoverage')
    else bump(short, 'gap')
  } else bump(short, 'other')
}

const total = { killed: 0, timeout: 0, equivalent: 0, gap: 0, noCoverage: 0, other: 0 }
const share = (n, r) => {
  const nonEquivalent = r.killed + r.timeout + r.gap + r.noCoverage
  return nonEquivalent === 0 ? '—' : `${((100 * n) / nonEquivalent).toFixed(1)}%`
}
const pct = (r) => `${share(r.killed, r)} | ${share(r.killed + r.timeout, r)}`
console.log(
  '| file | killed | timeout | survived: equivalent | survived: gap | no coverage (gap) | killed / non-equivalent | killed + timeout / non-equivalent |',
)
console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
for (const [file, r] of [...rows.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  for (const k of Object.keys(total)) total[k] += r[k]
  console.log(`| ${file} | ${r.killed} | ${r.timeout} | ${r.equivalent} | ${r.gap} | ${r.noCoverage} | ${pct(r)} |`)
}
console.log(
  `| **total** | **${total.killed}** | **${total.timeout}** | **${total.equivalent}** | **${total.gap}** | **${total.noCoverage}** | ` +
    `**${share(total.killed, total)}** | **${share(total.killed + total.timeout, total)}** |`,
)
if (total.other > 0) console.log(`(${total.other} mutants with another status: compile or runtime errors)`)

const byGroup = new Map()
for (const s of survivors) {
  const key = `${s.verdict.class}: ${s.verdict.group}`
  byGroup.set(key, [...(byGroup.get(key) ?? []), s])
}
console.log('')
for (const [key, group] of [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const where = [...new Set(group.map((s) => s.file))].join(', ')
  console.log(`- ${key} — ${group.length} (${where}): ${group[0].verdict.reason}`)
  if (list) for (const s of group) console.log(
    `    ${s.file}:${s.m.location.start.line}:${s.m.location.start.column} ${s.m.mutatorName} ${s.m.status === 'NoCoverage' ? '(no coverage) ' : ''}` +
      `\`${s.text.slice(0, 70)}\` → \`${String(s.m.replacement).replace(/\s+/g, ' ').slice(0, 50)}\``,
  )
}

if (args.includes('--markdown')) {
  // The triage document's lists: equivalent survivors by reason, with where and why; gaps one by one.
  const equivalent = survivors.filter((s) => s.verdict.class === 'equivalent')
  const groups = new Map()
  for (const s of equivalent) groups.set(s.verdict.group, [...(groups.get(s.verdict.group) ?? []), s])
  console.log('\n<!-- equivalent -->')
  for (const [group, list] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`\n### ${group} — ${list.length}\n\n${list[0].verdict.reason}.\n`)
    const byFile = new Map()
    for (const s of list) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s])
    for (const [file, items] of byFile) {
      const notes = [...new Set(items.map((s) => s.verdict.note).filter(Boolean))]
      const lines = [...new Set(items.map((s) => s.m.location.start.line))].sort((a, b) => a - b)
      console.log(`- \`${file}\` (${items.length}; lines ${lines.join(', ')})${notes.length ? `: ${notes.join('; ')}` : ''}`)
    }
  }
  console.log('\n<!-- gaps -->')
  for (const s of survivors.filter((x) => x.verdict.class === 'gap')) {
    console.log(
      `- \`${s.file}:${s.m.location.start.line}\` ${s.m.mutatorName}${s.m.status === 'NoCoverage' ? ' (no coverage)' : ''}: ` +
        `\`${s.text.replace(/\s+/g, ' ').slice(0, 60)}\` → \`${String(s.m.replacement).replace(/\s+/g, ' ').slice(0, 40)}\``,
    )
  }
}
