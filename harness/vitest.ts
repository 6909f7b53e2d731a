/** Running the conformance suites inside a registry project's own vitest setup. */
export { defineConformanceSuite, type SuiteOptions } from './in-vitest/define-suite.js'
