// How many children a certify run starts by default: one for a small run, since a child that only
// starts costs more than it saves; what --workers asks for, always.
import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { CASES_PER_CHILD, resolveRun, type RunOptions } from '../harness/engine/resolve-run.js'

const cores = Math.min(2, availableParallelism())
const workers = (options: RunOptions) => resolveRun({ corpus: false, ...options }).workers

describe('the default number of children', () => {
  it.each<[string, RunOptions, number]>([
    ['every clause', {}, cores],
    ['two clauses at 60 runs (120 cases)', { clauses: ['FIN-2', 'PRE-1'], runs: 60 }, 1],
    ['one clause at the default 100 runs', { clauses: ['FIN-2'] }, 1],
    [`two clauses at ${CASES_PER_CHILD} runs`, { clauses: ['FIN-2', 'PRE-1'], runs: CASES_PER_CHILD }, cores],
    ['a small run repeated for a duration', { clauses: ['FIN-2'], runs: 5, durationMs: 1000 }, cores],
    ['a small run with --workers 2', { clauses: ['FIN-2'], runs: 5, workers: 2 }, 2],
  ])('%s', (_, options, expected) => {
    expect(workers(options)).toBe(expected)
  })
})
