/** The package's public surface: the adapter contract, the SPEC shapes and the clause catalogue. */
export type * from './adapter.js'
export { PROFILES, ERROR_CODES } from './adapter.js'
export { CLAUSES, CLAUSE_IDS, type Clause, type Level } from './clauses.js'
export type { CertifyReport, ClauseVerdict, ClauseStatus } from './report/build-report.js'
export type { ClaimHarness } from './claims/types.js'
export { SEAMS, CLAUSE_SEAMS, seamsOf, missingSeam } from './seams.js'
