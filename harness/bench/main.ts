/**
 * `npm run bench`: certification time, runs-to-detection per mutant and per peer known failure,
 * the reference's per-call cost and the harness overhead. Every figure is a median [min–max] over
 * repeats, and ratios are taken against a baseline measured in the same run. It reports; it never
 * fails on a number.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import reference from '../../reference-impl/adapters/reference.js'
import { loadMutants } from '../mutation/kill.js'
import { measureAgainstBaseline } from './baseline-commit.js'
import { measureCertifyCli } from './certify-cli.js'
import { measureCertifyTime } from './certify-time.js'
import { DETECTION_RUNS, detectionRow, measureDetection } from './detection.js'
import { measureExecuteCost } from './execute-cost.js'
import { loadPeerFaults } from './peer-faults.js'
import { measureSandboxCost } from './sandbox-cost.js'
import { measureSupervisionCost } from './supervision-cost.js'
import { fmt } from './stats.js'

const quick = process.argv.includes('--quick')
/** Timing only: runs-to-detection (every mutant over every seed) is most of a bench run. */
const withDetection = !process.argv.includes('--no-detection')
const repeats = quick ? 1 : 3
const seeds = quick ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const baselineAt = process.argv.indexOf('--baseline-ref')
const baselineRef = baselineAt >= 0 ? process.argv[baselineAt + 1] : undefined
if (baselineAt >= 0 && (baselineRef === undefined || baselineRef.startsWith('--'))) {
  console.error('bench: --baseline-ref needs a git commit or branch, e.g. --baseline-ref main')
  process.exit(2)
}

const progress = (what: string) => process.stderr.write(`bench: ${what}…\n`)

progress('per-call cost of execute')
const executeCost = await measureExecuteCost(quick ? 3 : 7, 5000)
const loadBefore = loadavg()[0]!
progress('certification time of the reference (in process, per suite)')
const certifyTime = await measureCertifyTime(reference, repeats, 1)
progress('certification time of the reference (toolreg certify, as a user runs it)')
const certifyCli = measureCertifyCli(repeats, 1)
if (baselineRef) progress(`npm run certify here and at ${baselineRef}, interleaved`)
const baseline = baselineRef ? measureAgainstBaseline(baselineRef, repeats, 1) : undefined
progress('cost of the run_code sandbox')
const sandboxCost = await measureSandboxCost(repeats, quick ? 5 : 20)
if (withDetection) progress(`runs-to-detection over ${seeds.length} seeds`)
const onMutant = (rows: { mutant: string; missedSeeds: number[] }[]) =>
  progress(`detection: ${rows[0]?.mutant}${rows.some((r) => r.missedSeeds.length > 0) ? ' (missed on some seeds)' : ''}`)
const faults = async () => [...(await loadMutants()), ...(await loadPeerFaults())]
const detection = withDetection ? await measureDetection(await faults(), seeds, onMutant) : []
progress('cost of supervising each case (in process, with and without)')
const supervisionCost = await measureSupervisionCost(reference, repeats, 1)

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
})()
const machine = { cpus: cpus().length, loadAverage1m: { start: loadBefore, end: loadavg()[0]! } }
const report = {
  node: process.version, commit, machine, repeats, seeds, executeCost, certifyTime, certifyCli, baseline, sandboxCost, supervisionCost, detection,
}
await mkdir('reports', { recursive: true })
await writeFile('reports/bench.json', `${JSON.stringify(report, null, 2)}\n`)

const lines = [
  '## toolreg benchmark (median [min–max])',
  '',
  `node ${process.version}, commit ${commit}, ${machine.cpus} CPUs, ` +
    `1-minute load average ${machine.loadAverage1m.start.toFixed(1)} at start and ${machine.loadAverage1m.end.toFixed(1)} at end; ` +
    `${repeats} repeats, ${seeds.length} seeds.`,
  '',
  '| measure | value |',
  '|---|---|',
  `| bare \`await body(args)\` | ${fmt(executeCost.bareNs, 0, ' ns')} |`,
  `| reference execute, no listeners | ${fmt(executeCost.plainNs, 0, ' ns')} (×${fmt(executeCost.plainRatio, 1)} bare) |`,
  `| reference execute, one listener per stage | ${fmt(executeCost.listenersNs, 0, ' ns')} (×${fmt(executeCost.listenersRatio, 1)} bare) |`,
  `| bare \`node -e ''\` start (process wall time) | ${fmt(certifyCli.bareNodeMs, 0, ' ms')} |`,
  `| \`npm run certify\` on the reference, default depth (process wall time; exit codes ${certifyCli.exitCodes.join(', ')}) | ` +
    `${fmt(certifyCli.wallMs, 0, ' ms')} (×${(certifyCli.wallMs.median / certifyTime.totalMs.median).toFixed(2)} the in-process time) |`,
  `| \`npm run certify\`: CPU seconds (all its Node processes) / peak RSS (largest process) | ` +
    `${fmt(certifyCli.cpuSeconds, 1, ' s')} / ${fmt(certifyCli.peakRssMb, 0, ' MB')} |`,
  `| \`npm run certify -- --clause PRE-1\` (one clause: mostly start-up) | ${fmt(certifyCli.singleClauseMs, 0, ' ms')} |`,
  ...(baseline
    ? [
      `| \`npm run certify\` here / at ${baseline.ref} (${baseline.commit}), interleaved | ` +
        `${fmt(baseline.currentMs, 0, ' ms')} / ${fmt(baseline.baselineMs, 0, ' ms')} (×${baseline.ratio.toFixed(2)}) |`,
    ]
    : []),
  `| the same properties in process, default depth (sum of the suites below) | ${fmt(certifyTime.totalMs, 0, ' ms')} |`,
  `| isolation, all of it: \`npm run certify\` minus the in-process time (processes, loading, the supervisor) | ` +
    `${Math.round(certifyCli.wallMs.median - certifyTime.totalMs.median)} ms |`,
  `| of which supervising each case (watchdog, escape traps, globals): in process with / without | ` +
    `${fmt(supervisionCost.supervisedMs, 0, ' ms')} / ${fmt(supervisionCost.plainMs, 0, ' ms')} (×${fmt(supervisionCost.ratio, 2)}) |`,
  `| one \`run_code\` call with one sub-call (sandbox thread + QuickJS) / the tool called natively | ` +
    `${fmt(sandboxCost.runCodeMs, 2, ' ms')} / ${fmt(sandboxCost.nativeMs, 3, ' ms')} (×${fmt(sandboxCost.ratio, 0)}) |`,
  `| harness overhead (case time / time in execute) | ×${fmt(certifyTime.harnessOverhead, 1)} |`,
  '',
  '| suite (in process) | ms |',
  '|---|---|',
  ...Object.entries(certifyTime.perSuiteMs).map(([suite, s]) => `| ${suite} | ${fmt(s, 0)} |`),
]
if (withDetection) {
  const slow = detection.filter((d) => d.survivedSeeds > 0 || d.casesToDetection.median > 10)
  const slowList = slow.map((d) => `${d.mutant}/${d.clause}`).join(', ')
  const missed = detection.filter((d) => d.survivedSeeds > 0)
  lines.push(
    '',
    `| mutant or peer | clause | cases to detection (${seeds.length} seeds) | on seeds ${seeds.join(', ')} | seeds where not found at ${DETECTION_RUNS} runs |`,
    '|---|---|---|---|---|',
    ...detection.map((d) => detectionRow(d, (s) => fmt(s, 0))),
    '',
    missed.length === 0
      ? `Every mutant and every peer known failure is found on every seed at ${DETECTION_RUNS} runs.`
      : `Not found on some seed at ${DETECTION_RUNS} runs: ${missed.map((d) => `${d.mutant}/${d.clause} (${d.missedSeeds.join(', ')})`).join(', ')}`,
    slow.length === 0 ? 'Every one is detected within a median of 10 cases.' : `Above the target (median ≤ 10, no survivors): ${slowList}`,
  )
} else lines.push('', 'Runs-to-detection not measured (--no-detection).')
const table = lines.join('\n')
await writeFile('reports/bench.md', `${table}\n`)
console.log(table)
