// The conformance suites against the reference, as the test set Stryker mutates the reference
// under (npm run mutate): a fixed seed, so every mutant meets the same cases.
import { defineConformanceSuite } from '../../harness/vitest.js'
import reference from '../../reference-impl/adapters/reference.js'

defineConformanceSuite(reference, { runs: 30, seed: 20261130, counterexampleDir: 'reports/mutation/counterexamples' })
