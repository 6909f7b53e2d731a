// The two lines a registry project adds to its own vitest run to gate on conformance.
import { defineConformanceSuite } from '../harness/vitest.js'
import reference from '../reference-impl/adapters/reference.js'

defineConformanceSuite(reference, { runs: 10, seed: 20261130, counterexampleDir: 'reports/counterexamples' })
