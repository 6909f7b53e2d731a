// `toolreg/vitest` for a project's own vitest, which leaves node_modules to Node: the bundle of
// vitest.ts (safe/compiled.mjs), else the source through tsx. 'vitest' itself stays outside the
// bundle, so the suite registers its tests with the project's vitest. Types: types/vitest.d.ts.
import { importable } from './safe/compiled.mjs'

const entry = await import(await importable(new URL('./vitest.ts', import.meta.url)))

export const { defineConformanceSuite } = entry
