// Entry point of a child that runs the implementation for `toolreg certify` (child.ts): a bundle
// of the harness (safe/compiled.mjs), else the TypeScript through tsx. The adapter is loaded
// through tsx either way (safe/load-adapter.ts registers it).
import { compiledEntry } from '../safe/compiled.mjs'
import { ensureTypeScriptLoader } from '../safe/typescript-loader.mjs'

const compiled = await compiledEntry(new URL('./child.ts', import.meta.url))
if (!compiled) await ensureTypeScriptLoader()
await import(compiled ?? './child.ts')
