#!/usr/bin/env node
// Entry point of the `toolreg` command. The harness runs as a bundle of its TypeScript
// (safe/compiled.mjs), else from source through tsx. `certify` forks its first child before
// anything else, so that the child's start-up runs beside the supervisor's
// (supervisor/early-child.mjs). What loads a user's TypeScript (an adapter, a tool module)
// registers tsx first (safe/typescript-loader.mjs).
import { discardEarly, forkEarly } from '../supervisor/early-child.mjs'
import { compiledEntry } from '../safe/compiled.mjs'
import { ensureTypeScriptLoader } from '../safe/typescript-loader.mjs'

const [command, ...rest] = process.argv.slice(2)
if (command === 'certify' && !rest.some((arg) => arg === '--help' || arg === '-h')) forkEarly()
const compiled = await compiledEntry(new URL('./main.ts', import.meta.url))
if (!compiled) await ensureTypeScriptLoader()
const { main } = await import(compiled ?? './main.ts')
process.exitCode = await main(process.argv.slice(2))
discardEarly()
