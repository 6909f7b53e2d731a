/**
 * `npm run bench`: certification time, runs-to-detection per mutant, the reference's per-call
 * cost and the harness overhead. Every figure is a median [min–max] over repeats, and ratios are
 * taken against a baseline measured in the same run. It reports; it never fails on a number.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import reference from '../../fixtures/adapters/reference.js'
import { loadMutants } from '../mutation/kill.js'
import { measureCertifyTime } from './certify-time.js'
import { measureDetection } from './detection.js'
import { measureExecuteCost } from './execute-cost.js'
import { fmt } from './stats.js'

const quick = process.argv.includes('--quick')
const repeats = quick ? 1 : 3
const seeds = quick ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

const progress = (what: string) => process.stderr.write(`bench: ${what}…\n`)

progress('per-call cost of execute')
const executeCost = await measureExecuteCost(quick ? 3 : 7, 5000)
progress('certification time of the reference')
const certifyTime = await measureCertifyTime(reference, repeats, 1)
progress(`runs-to-detection over ${seeds.length} seeds`)
const detection = await measureDetection(await loadMutants(), seeds)

const report = { node: process.version, repeats, seeds, executeCost, certifyTime, detection }
await mkdir('reports', { recursive: true })
await writeFile('reports/bench.json', `${JSON.stringify(report, null, 2)}\n`)

const lines = [
  '## toolreg benchmark (median [min–max])',
  '',
  '| measure | value |',
  '|---|---|',
  `| bare \`await body(args)\` | ${fmt(executeCost.bareNs, 0, ' ns')} |`,
  `| reference execute, no listeners | ${fmt(executeCost.plainNs, 0, ' ns')} (×${fmt(executeCost.plainRatio, 1)} bare) |`,
  `| reference execute, one listener per stage | ${fmt(executeCost.listenersNs, 0, ' ns')} (×${fmt(executeCost.listenersRatio, 1)} bare) |`,
  `| certify the reference, default depth | ${fmt(certifyTime.totalMs, 0, ' ms')} |`,
  `| harness overhead (case time / time in execute) | ×${fmt(certifyTime.harnessOverhead, 1)} |`,
  '',
  '| suite | ms |',
  '|---|---|',
  ...Object.entries(certifyTime.perSuiteMs).map(([suite, s]) => `| ${suite} | ${fmt(s, 0)} |`),
  '',
  `| mutant | clause | cases to detection (${seeds.length} seeds) | survived seeds |`,
  '|---|---|---|---|',
  ...detection.map((d) => `| ${d.mutant} | ${d.clause} | ${fmt(d.casesToDetection, 0)} | ${d.survivedSeeds} |`),
]
const slow = detection.filter((d) => d.survivedSeeds > 0 || d.casesToDetection.median > 10)
lines.push('', slow.length === 0 ? 'Every mutant is detected within a median of 10 cases.' : `Above the target (median ≤ 10, no survivors): ${slow.map((d) => `${d.mutant}/${d.clause}`).join(', ')}`)
const table = lines.join('\n')
await writeFile('reports/bench.md', `${table}\n`)
console.log(table)
