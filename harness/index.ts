/** The package's public surface: the adapter contract, the SPEC shapes and the clause catalogue. */
export type * from './contract/adapter.js'
export { PROFILES, ERROR_CODES, AdapterFault, isAdapterFault } from './contract/adapter.js'
export { CLAUSES, CLAUSE_IDS, type Clause, type Level } from './contract/clauses.js'
export type { CertifyReport, ClauseVerdict, ClauseStatus } from './report/build-report.js'
export type { ClaimHarness } from './claims/types.js'
export { SEAMS, CLAUSE_SEAMS, seamsOf, missingSeam, type SeamNeed } from './seams.js'
