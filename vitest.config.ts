import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['reference-impl/**/*.test.ts', 'harness/**/*.test.ts', 'fixtures/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    // vitest's default is one worker less than the CPUs: on 2 cores, one file at a time. Most files
    // here wait on certify processes, so a file per core keeps both busy.
    maxWorkers: '100%',
  },
})
