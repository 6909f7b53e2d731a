// The package's main entry for code Node loads itself, without a TypeScript loader (a vitest
// that leaves node_modules to Node, a plain .mjs adapter): the bundle of index.ts
// (safe/compiled.mjs), else the source through tsx. Its types: types/toolreg.d.ts.
import { importable } from './safe/compiled.mjs'

const entry = await import(await importable(new URL('./index.ts', import.meta.url)))

export const { PROFILES, ERROR_CODES, AdapterFault, isAdapterFault, CLAUSES, CLAUSE_IDS, SEAMS, CLAUSE_SEAMS, seamsOf, missingSeam } = entry
