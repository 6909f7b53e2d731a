import { defineConfig } from 'vitest/config'

// The test set for mutation testing: the conformance suites run against the reference registry.
export default defineConfig({
  test: {
    include: ['tests/mutate/conformance.mutate.ts'],
    testTimeout: 60_000,
  },
})
