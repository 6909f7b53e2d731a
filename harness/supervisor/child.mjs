// Entry point of a child that runs the implementation for `toolreg certify` (child.ts): a bundle
// of the harness (safe/compiled.mjs), else the TypeScript through tsx. The adapter is loaded
// through tsx either way (safe/load-adapter.ts registers it).
import { importable } from '../safe/compiled.mjs'

await import(await importable(new URL('./child.ts', import.meta.url)))
