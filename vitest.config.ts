import { defineConfig } from 'vitest/config'
import SlowestFirst from './tests/slowest-first.js'

const INCLUDE = ['reference-impl/**/*.test.ts', 'harness/**/*.test.ts', 'fixtures/**/*.test.ts', 'tests/**/*.test.ts']
/** Files that mock a module another file may already have loaded: they get a module registry of their own. */
const ISOLATED = ['tests/write-atomically.test.ts']

export default defineConfig({
  test: {
    // A hang guard, not a speed assertion: on a loaded runner a certify run may take minutes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // vitest's default is one worker less than the CPUs: on 2 cores, one file at a time. Most files
    // here wait on certify processes, so a file per core keeps both busy.
    maxWorkers: '100%',
    // The longest files first, on a fresh clone too (tests/slowest-first.ts).
    sequence: { sequencer: SlowestFirst },
    // A temporary folder of the run's own, removed after it; the bundles the tests' processes load,
    // built in one process before any test; and a failed run when a process the tests started
    // outlives them (vitest tears down in reverse order: that check before the folder goes).
    globalSetup: ['tests/session-tmp.ts', 'tests/prebuilt-bundles.ts', 'tests/no-leftover-processes.ts'],
    projects: [
      // A worker keeps its modules from one file to the next: importing the harness afresh for each
      // of 58 files cost about as much CPU as the in-process tests themselves.
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
})
