import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['reference-impl/**/*.test.ts', 'harness/**/*.test.ts', 'fixtures/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
  },
})
